import { composeMail, type MailAddressee, type MailMessage } from './mail-message';
import { MAIL_TEXTS } from './mail-texts';

export interface AlreadyActiveMailInput extends MailAddressee {
  /** Where the tenant signs in: the customer's portal (customerLoginLink). */
  signInLink: string;
  /** The reset page with the address filled in (passwordResetLink). */
  resetLink: string;
}

/**
 * Issue 28: the answer to "send me the activation e-mail again" for an account that is active
 * already — sign in, or set a new password. Sent to the address, never said on the page, which
 * answers the same for every address.
 */
export function renderAlreadyActiveMail(input: AlreadyActiveMailInput): MailMessage {
  const { alreadyActive } = MAIL_TEXTS[input.language];
  return composeMail('already-active', input, {}, (text) => ({
    subject: text(alreadyActive.subject),
    greeting: text(alreadyActive.greeting),
    paragraphs: [text(alreadyActive.body)],
    button: { label: text(alreadyActive.button), href: input.signInLink },
    linkHint: text(alreadyActive.linkHint),
    secondaryLink: { text: text(alreadyActive.forgotPassword), href: input.resetLink },
    notes: [text(alreadyActive.ignore)],
  }));
}
