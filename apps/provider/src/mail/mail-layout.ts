import type { Language } from '@concierge/contracts';
import { escapeHtml } from './mail-texts';

export interface MailDocumentInput {
  language: Language;
  /** Plain text; escaped here. */
  subject: string;
  /** The card's content, already escaped HTML. */
  content: string;
  /** Plain text; escaped here. */
  footer: string;
  /** #rrggbb: a bar in the tenant's colour across the top of the card, for mails without a button. */
  accentColor?: string;
}

/** The frame every e-mail of the provider shares: a white card on grey, the footer below it. */
export function renderMailDocument(input: MailDocumentInput): string {
  const accent = input.accentColor ? `;border-top:4px solid ${input.accentColor}` : '';
  // Tables and inline styles: what mail clients reliably render.
  return `<!DOCTYPE html>
<html lang="${input.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(input.subject)}</title></head>
<body style="margin:0;padding:0;background:#f4f5f7;font-family:Arial,Helvetica,sans-serif;color:#1f2933">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f5f7"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px${accent}"><tr><td style="padding:32px;font-size:15px;line-height:1.6">
${input.content}
</td></tr></table>
<p style="margin:16px 0 0;font-size:12px;color:#7b8794">${escapeHtml(input.footer)}</p>
</td></tr></table>
</body></html>`;
}

/** Small grey print, for hints below a mail's main text. */
export const SMALL_PRINT_STYLE = 'font-size:13px;line-height:1.5;color:#52606d';
