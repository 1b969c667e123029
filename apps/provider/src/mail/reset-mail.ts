import {
  contrastRatio,
  fillPlaceholders,
  formatLifetime,
  type Language,
  readableTextColor,
  renderMailLayout,
} from '@concierge/contracts';
import { DEFAULT_BRAND_COLOR } from './brand-color';
import type { MailMessage } from './mail-message';
import { MAIL_TEXTS } from './mail-texts';

export interface ResetMailInput {
  to: string;
  language: Language;
  /** The client's readable name (client_name), e.g. "Demo Immobilien AG". */
  tenantName: string;
  /** #rrggbb, validated in config.ts; the default dark blue otherwise. */
  brandColor?: string;
  link: string;
  /** How long the link works (RESET_LINK_LIFETIME_MINUTES): the e-mail says it. */
  lifetimeMinutes: number;
}

/** WCAG 1.4.3: small text on the white card. */
const AA_NORMAL_TEXT = 4.5;

/** The password-reset e-mail with its HTML and text parts in the user's language. */
export function renderResetMail(input: ResetMailInput): MailMessage {
  const { reset, common } = MAIL_TEXTS[input.language];
  const values = {
    tenantName: input.tenantName,
    lifetime: formatLifetime(input.lifetimeMinutes, input.language),
  };
  const text = (value: string) => fillPlaceholders(value, values);
  const color = input.brandColor ?? DEFAULT_BRAND_COLOR;
  const subject = text(reset.subject);
  return {
    to: input.to,
    subject,
    ...renderMailLayout({
      language: input.language,
      subject,
      // The provider knows a client's name and colour, not its logo.
      brand: { tenantName: input.tenantName, buttonColor: color, buttonTextColor: readableTextColor(color) },
      greeting: text(reset.greeting),
      paragraphs: [text(reset.body), text(reset.unlockNote)],
      button: { label: text(reset.button), href: input.link },
      linkHint: text(reset.linkHint),
      // the spelled-out link in the brand's colour where it reads on white, else in the text's
      linkColor: contrastRatio(color, '#ffffff') >= AA_NORMAL_TEXT ? color : undefined,
      notes: [text(reset.expiry), text(reset.ignore)],
      footer: text(common.footer),
    }),
  };
}
