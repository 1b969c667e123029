import { fillPlaceholders, mailParagraph, renderMailDocument } from '@concierge/contracts';
import type { MailAddressee, MailMessage } from './mail-message';
import { MAIL_TEXTS } from './mail-texts';

export interface InvitationRequestNoticeInput extends MailAddressee {
  /** Whose invitation: the invitation's own e-mail, never what the request was sent with. */
  inviteeEmail: string;
  /** The invitation asked about: the one `invitations resend` takes. */
  invitationId: string;
  /** The tenant's subdomain, for listing its open requests. */
  tenant: string;
}

const COMMAND_STYLE = 'font-family:Consolas,Menlo,monospace;font-size:14px;word-break:break-all';

/**
 * Issue 30: the office's notice that an invitee asked for a new invitation (registration/
 * new-invitation-request.ts), in the office's language, with the admin CLI's commands that answer
 * it. A notice, not a call to action for the invitee: no button, no link, nothing to click.
 */
export function renderInvitationRequestNotice(input: InvitationRequestNoticeInput): MailMessage {
  const { invitationRequest: texts, common } = MAIL_TEXTS[input.language];
  const text = (template: string) =>
    fillPlaceholders(template, { tenantName: input.brand.tenantName, email: input.inviteeEmail });
  const resendCommand = `invitations resend ${input.invitationId}`;
  const requestsCommand = `invitations requests --tenant ${input.tenant}`;
  const subject = text(texts.subject);
  const footer = text(common.footer);
  return {
    kind: 'invitation-request',
    to: input.to,
    subject,
    html: renderMailDocument({
      language: input.language,
      subject,
      footer,
      accentColor: input.brand.buttonColor,
      content: [
        mailParagraph(text(texts.greeting)),
        mailParagraph(text(texts.body)),
        mailParagraph(text(texts.resend)),
        mailParagraph(resendCommand, COMMAND_STYLE),
        mailParagraph(text(texts.requests)),
        mailParagraph(requestsCommand, COMMAND_STYLE),
        mailParagraph(text(texts.ignore)),
      ].join('\n'),
    }),
    text: [
      text(texts.greeting),
      text(texts.body),
      `${text(texts.resend)}\n${resendCommand}`,
      `${text(texts.requests)}\n${requestsCommand}`,
      text(texts.ignore),
      `-- \n${footer}`,
    ].join('\n\n'),
  };
}
