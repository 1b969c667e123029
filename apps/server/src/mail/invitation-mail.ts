import { writtenDate } from '@concierge/contracts';
import { composeMail, type MailAddressee, type MailMessage } from './mail-message';
import { MAIL_TEXTS } from './mail-texts';

export interface InvitationMailInput extends MailAddressee {
  code: string;
  link: string;
  /**
   * The last day the invitation registers (admin/invitation-expiry.ts), which the e-mail names.
   * Every invitation the server issues has one; without it (a rendering of the e-mail's look alone,
   * e2e's gallery of every mail) the e-mail says nothing about how long it is valid.
   */
  lastValidDay?: Date;
}

/** The invitation e-mail an operator sends: the register link with code, e-mail and invite id. */
export function renderInvitationMail(input: InvitationMailInput): MailMessage {
  const { invitation } = MAIL_TEXTS[input.language];
  const { lastValidDay } = input;
  const expiryDate = lastValidDay ? writtenDate(lastValidDay, input.language) : undefined;
  const values = { code: input.code, ...(expiryDate ? { expiryDate } : {}) };
  return composeMail('invitation', input, values, (text) => ({
    subject: text(invitation.subject),
    greeting: text(invitation.greeting),
    paragraphs: [text(invitation.body), text(invitation.code)],
    button: { label: text(invitation.button), href: input.link },
    linkHint: text(invitation.linkHint),
    notes: [...(expiryDate ? [text(invitation.expiry)] : []), text(invitation.ignore)],
  }));
}
