/** One e-mail as the outbox stores it and the transport sends it. */
export interface MailMessage {
  /** What it is, for logs and look-ups; never personal data. */
  kind: 'activation' | 'invitation';
  to: string;
  subject: string;
  html: string;
  text: string;
}
