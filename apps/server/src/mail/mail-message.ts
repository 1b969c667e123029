import { fillPlaceholders, type Language, type MailContent, renderMailLayout } from '@concierge/contracts';
import type { MailBrand } from './mail-brand';
import { MAIL_TEXTS } from './mail-texts';

/** One e-mail as the outbox stores it and the transport sends it. */
export interface MailMessage {
  /** What it is, for logs and look-ups; never personal data. */
  kind: 'activation' | 'invitation' | 'already-active' | 'invitation-request';
  to: string;
  subject: string;
  html: string;
  text: string;
}

/** Who a mail goes to, in which language and brand. */
export interface MailAddressee {
  to: string;
  language: Language;
  brand: MailBrand;
}

/** A mail's own parts, its texts' placeholders already filled in. */
export type MailParts = Omit<MailContent, 'language' | 'brand' | 'signature' | 'footer'>;

/**
 * What every mail of the server shares: the placeholders of its texts filled in (the tenant's name
 * and `values`), the brand's layout, and the common signature and footer in the mail's language.
 */
export function composeMail(
  kind: MailMessage['kind'],
  addressee: MailAddressee,
  values: Record<string, string>,
  parts: (text: (template: string) => string) => MailParts,
): MailMessage {
  const { common } = MAIL_TEXTS[addressee.language];
  const text = (template: string) =>
    fillPlaceholders(template, { tenantName: addressee.brand.tenantName, ...values });
  const content = parts(text);
  return {
    kind,
    to: addressee.to,
    subject: content.subject,
    ...renderMailLayout({
      ...content,
      language: addressee.language,
      brand: addressee.brand,
      signature: text(common.signature),
      footer: text(common.footer),
    }),
  };
}
