import type { Language } from '@concierge/contracts';
import { DEFAULT_BRAND_COLOR, readableTextColor } from './brand-color';
import { renderMailDocument, SMALL_PRINT_STYLE } from './mail-layout';
import type { MailMessage } from './mail-message';
import { escapeHtml, interpolate, MAIL_TEXTS } from './mail-texts';

export interface ResetMailInput {
  to: string;
  language: Language;
  /** The client's readable name (client_name), e.g. "Demo Immobilien AG". */
  tenantName: string;
  /** #rrggbb, validated in config.ts; the default dark blue otherwise. */
  brandColor?: string;
  link: string;
  minutes: number;
}

/** The password-reset e-mail with its HTML and text parts in the user's language. */
export function renderResetMail(input: ResetMailInput): MailMessage {
  const { reset, common } = MAIL_TEXTS[input.language];
  const values = { tenantName: input.tenantName, minutes: input.minutes };
  const text = (value: string) => interpolate(value, values);
  const html = (value: string) => escapeHtml(text(value));
  const color = input.brandColor ?? DEFAULT_BRAND_COLOR;
  const link = escapeHtml(input.link);
  const small = SMALL_PRINT_STYLE;
  const subject = text(reset.subject);

  return {
    to: input.to,
    subject,
    html: renderMailDocument({
      language: input.language,
      subject,
      footer: text(common.footer),
      content: `<p style="margin:0 0 16px">${html(reset.greeting)}</p>
<p style="margin:0 0 16px">${html(reset.body)}</p>
<p style="margin:0 0 16px">${html(reset.unlockNote)}</p>
<p style="margin:32px 0;text-align:center"><a href="${link}" style="display:inline-block;padding:12px 24px;border-radius:6px;background:${color};color:${readableTextColor(color)};font-weight:bold;text-decoration:none">${html(reset.button)}</a></p>
<p style="margin:0 0 16px;${small}">${html(reset.linkHint)}<br><a href="${link}" style="color:${color};word-break:break-all">${link}</a></p>
<p style="margin:0 0 16px;${small}">${html(reset.expiry)}</p>
<p style="margin:0;${small}">${html(reset.ignore)}</p>`,
    }),
    text: [
      text(reset.greeting),
      text(reset.body),
      text(reset.unlockNote),
      `${text(reset.button)}:\n${input.link}`,
      text(reset.expiry),
      text(reset.ignore),
      `-- \n${text(common.footer)}`,
    ].join('\n\n'),
  };
}
