import { writtenDate } from '@concierge/contracts';
import { composeMail, type MailAddressee, type MailMessage } from './mail-message';
import { MAIL_TEXTS } from './mail-texts';

export interface InvitationMailInput extends MailAddressee {
  code: string;
  link: string;
  /** The last day the invitation registers (admin/invitation-expiry.ts), which the e-mail names. */
  lastValidDay: Date;
}

/** The invitation e-mail an operator sends: the register link with code, e-mail and invite id. */
export function renderInvitationMail(input: InvitationMailInput): MailMessage {
  const { invitation } = MAIL_TEXTS[input.language];
  const values = { code: input.code, expiryDate: writtenDate(input.lastValidDay, input.language) };
  return composeMail('invitation', input, values, (text) => ({
    subject: text(invitation.subject),
    greeting: text(invitation.greeting),
    paragraphs: [text(invitation.body), text(invitation.code)],
    button: { label: text(invitation.button), href: input.link },
    linkHint: text(invitation.linkHint),
    notes: [text(invitation.expiry), text(invitation.ignore)],
  }));
}
