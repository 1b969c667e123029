/** One e-mail as the mail outbox stores it; the sender adds the from-address. */
export interface MailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
}
