import { fillPlaceholders, formatLifetime, type Language, renderMailLayout } from '@concierge/contracts';
import type { MailBrand } from './mail-brand';
import type { MailMessage } from './mail-message';
import { MAIL_TEXTS } from './mail-texts';

export interface ActivationMailInput {
  to: string;
  language: Language;
  brand: MailBrand;
  link: string;
  /** How long the link lives (ACTIVATION_LINK_TTL_HOURS): the e-mail says it. */
  validHours: number;
}

/** The activation e-mail (ARCHITECTURE "Registration", "Resend activation") in the registration's language. */
export function renderActivationMail(input: ActivationMailInput): MailMessage {
  const { activation, common } = MAIL_TEXTS[input.language];
  const values = {
    tenantName: input.brand.tenantName,
    lifetime: formatLifetime(input.validHours * 60, input.language),
  };
  const text = (template: string) => fillPlaceholders(template, values);
  const subject = text(activation.subject);
  return {
    kind: 'activation',
    to: input.to,
    subject,
    ...renderMailLayout({
      language: input.language,
      subject,
      brand: input.brand,
      greeting: text(activation.greeting),
      paragraphs: [text(activation.body)],
      button: { label: text(activation.button), href: input.link },
      linkHint: text(activation.linkHint),
      notes: [text(activation.expiry), text(activation.ignore)],
      signature: text(common.signature),
      footer: text(common.footer),
    }),
  };
}
