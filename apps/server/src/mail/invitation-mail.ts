import { fillPlaceholders, type Language, renderMailLayout } from '@concierge/contracts';
import type { MailBrand } from './mail-brand';
import type { MailMessage } from './mail-message';
import { MAIL_TEXTS } from './mail-texts';

export interface InvitationMailInput {
  to: string;
  language: Language;
  brand: MailBrand;
  code: string;
  link: string;
}

/** The invitation e-mail an operator sends: the register link with code, e-mail and invite id. */
export function renderInvitationMail(input: InvitationMailInput): MailMessage {
  const { invitation, common } = MAIL_TEXTS[input.language];
  const values = { tenantName: input.brand.tenantName, code: input.code };
  const text = (template: string) => fillPlaceholders(template, values);
  const subject = text(invitation.subject);
  return {
    kind: 'invitation',
    to: input.to,
    subject,
    ...renderMailLayout({
      language: input.language,
      subject,
      brand: input.brand,
      greeting: text(invitation.greeting),
      paragraphs: [text(invitation.body), text(invitation.code)],
      button: { label: text(invitation.button), href: input.link },
      linkHint: text(invitation.linkHint),
      notes: [text(invitation.ignore)],
      signature: text(common.signature),
      footer: text(common.footer),
    }),
  };
}
