import type { Language } from '@concierge/contracts';
import { DEFAULT_BRAND_COLOR, readableTextColor } from './brand-color';
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
  const small = 'font-size:13px;line-height:1.5;color:#52606d';
  const subject = text(reset.subject);

  return {
    to: input.to,
    subject,
    // Tables and inline styles: what mail clients reliably render.
    html: `<!DOCTYPE html>
<html lang="${input.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background:#f4f5f7;font-family:Arial,Helvetica,sans-serif;color:#1f2933">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f5f7"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px"><tr><td style="padding:32px;font-size:15px;line-height:1.6">
<p style="margin:0 0 16px">${html(reset.greeting)}</p>
<p style="margin:0 0 16px">${html(reset.body)}</p>
<p style="margin:0 0 16px">${html(reset.unlockNote)}</p>
<p style="margin:32px 0;text-align:center"><a href="${link}" style="display:inline-block;padding:12px 24px;border-radius:6px;background:${color};color:${readableTextColor(color)};font-weight:bold;text-decoration:none">${html(reset.button)}</a></p>
<p style="margin:0 0 16px;${small}">${html(reset.linkHint)}<br><a href="${link}" style="color:${color};word-break:break-all">${link}</a></p>
<p style="margin:0 0 16px;${small}">${html(reset.expiry)}</p>
<p style="margin:0;${small}">${html(reset.ignore)}</p>
</td></tr></table>
<p style="margin:16px 0 0;font-size:12px;color:#7b8794">${html(common.footer)}</p>
</td></tr></table>
</body></html>`,
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
