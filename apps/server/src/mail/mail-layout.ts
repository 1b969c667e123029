import type { Language } from '@concierge/contracts';
import type { MailBrand } from './mail-brand';
import { escapeHtml } from './mail-texts';

/** An e-mail's content as plain text; the layout escapes everything it puts into HTML. */
export interface MailContent {
  language: Language;
  subject: string;
  brand: MailBrand;
  greeting: string;
  paragraphs: string[];
  button: { label: string; href: string };
  linkHint: string;
  /** Small print under the link: validity, "ignore this e-mail". */
  notes: string[];
  signature: string;
  footer: string;
}

const SMALL = 'font-size:13px;line-height:1.5;color:#52606d';

/** The branded HTML part (tables and inline styles: what mail clients reliably render) and the text part. */
export function renderMailLayout(content: MailContent): { html: string; text: string } {
  const { brand } = content;
  const e = escapeHtml;
  const href = e(content.button.href);
  const paragraph = (value: string, style = '') => `<p style="margin:0 0 16px;${style}">${e(value)}</p>`;
  const html = `<!DOCTYPE html>
<html lang="${content.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(content.subject)}</title></head>
<body style="margin:0;padding:0;background:#f4f5f7;font-family:Arial,Helvetica,sans-serif;color:#1f2933">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f5f7"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px"><tr><td style="padding:32px;font-size:15px;line-height:1.6">
<p style="margin:0 0 24px;text-align:center"><img src="${e(brand.logoUrl)}" alt="${e(brand.tenantName)}" width="120" height="120" style="display:inline-block;border:0;max-width:120px;height:auto"></p>
${paragraph(content.greeting)}
${content.paragraphs.map((value) => paragraph(value)).join('\n')}
<p style="margin:32px 0;text-align:center"><a href="${href}" style="display:inline-block;padding:12px 24px;border-radius:6px;background:${e(brand.buttonColor)};color:${e(brand.buttonTextColor)};font-weight:bold;text-decoration:none">${e(content.button.label)}</a></p>
<p style="margin:0 0 16px;${SMALL}">${e(content.linkHint)}<br><a href="${href}" style="color:#1f2933;word-break:break-all">${href}</a></p>
${content.notes.map((value) => paragraph(value, SMALL)).join('\n')}
${paragraph(content.signature)}
</td></tr></table>
<p style="margin:16px 0 0;font-size:12px;color:#7b8794">${e(content.footer)}</p>
</td></tr></table>
</body></html>`;
  const text = [
    content.greeting,
    ...content.paragraphs,
    `${content.button.label}:\n${content.button.href}`,
    ...content.notes,
    content.signature,
    `-- \n${content.footer}`,
  ].join('\n\n');
  return { html, text };
}
