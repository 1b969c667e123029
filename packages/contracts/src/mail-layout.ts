import { escapeHtml } from './html';
import type { Language } from './language';

// The one layout of every e-mail, the server's (activation, invitation) and the embedded provider's
// (reset, password changed): tables and inline styles, which is what mail clients reliably render.
// Everything comes in as plain text and is escaped here.

/**
 * The mails' colours, each text colour with the background it stands on. The grey of small print
 * and of the footer reaches 4.5:1 on the card and on the grey around it (WCAG 1.4.3; the footer's
 * lighter #7b8794 reached 3.35:1). mail-layout.test.ts checks the pairs.
 */
export const MAIL_COLORS = {
  text: '#1f2933',
  mutedText: '#52606d',
  card: '#ffffff',
  background: '#f4f5f7',
} as const;

/** Small grey print, for hints below a mail's main text. */
export const SMALL_PRINT_STYLE = `font-size:13px;line-height:1.5;color:${MAIL_COLORS.mutedText}`;

const TEXT_COLOR = MAIL_COLORS.text;

export interface MailDocumentInput {
  language: Language;
  subject: string;
  /** The card's content, already escaped HTML (mailParagraph and friends). */
  content: string;
  footer: string;
  /** #rrggbb: a bar in the tenant's colour across the top of the card, for mails without a button. */
  accentColor?: string;
}

/** The frame: a white card on grey, the footer below it. */
export function renderMailDocument(input: MailDocumentInput): string {
  const accent = input.accentColor ? `;border-top:4px solid ${escapeHtml(input.accentColor)}` : '';
  return `<!DOCTYPE html>
<html lang="${input.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(input.subject)}</title></head>
<body style="margin:0;padding:0;background:${MAIL_COLORS.background};font-family:Arial,Helvetica,sans-serif;color:${TEXT_COLOR}">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${MAIL_COLORS.background}"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:${MAIL_COLORS.card};border-radius:8px${accent}"><tr><td style="padding:32px;font-size:15px;line-height:1.6">
${input.content}
</td></tr></table>
<p style="margin:16px 0 0;font-size:12px;color:${MAIL_COLORS.mutedText}">${escapeHtml(input.footer)}</p>
</td></tr></table>
</body></html>`;
}

/** One paragraph of plain text, with extra inline style (SMALL_PRINT_STYLE, bold …). */
export function mailParagraph(text: string, style = ''): string {
  return `<p style="margin:0 0 16px${style ? `;${style}` : ''}">${escapeHtml(text)}</p>`;
}

/** What an e-mail shows of a tenant's brand. */
export interface MailLayoutBrand {
  tenantName: string;
  /** The brand's filled shade (what the portal's buttons wear), #rrggbb. */
  buttonColor: string;
  /** Black or white, whichever reads on buttonColor (readableTextColor). */
  buttonTextColor: string;
  /** Absolute (a mail client has no page to resolve a relative URL against); no logo without it. */
  logoUrl?: string;
}

/** An e-mail with one call to action: greeting, text, a button, the link spelled out, small print. */
export interface MailContent {
  language: Language;
  subject: string;
  brand: MailLayoutBrand;
  greeting: string;
  paragraphs: string[];
  button: { label: string; href: string };
  linkHint: string;
  /** The colour of the spelled-out link; the text colour unless given. */
  linkColor?: string;
  /** A second link, below the button's spelled-out one: its words, then the link itself. */
  secondaryLink?: { text: string; href: string };
  /** Small print under the link: validity, "ignore this e-mail". */
  notes: string[];
  /** Closing words above the footer, if any. */
  signature?: string;
  footer: string;
}

/** The branded HTML part and the text part of an e-mail with a call to action. */
export function renderMailLayout(content: MailContent): { html: string; text: string } {
  const { brand, secondaryLink: secondary } = content;
  const e = escapeHtml;
  const href = e(content.button.href);
  const logo = brand.logoUrl
    ? `<p style="margin:0 0 24px;text-align:center"><img src="${e(brand.logoUrl)}" alt="${e(brand.tenantName)}" width="120" height="120" style="display:inline-block;border:0;max-width:120px;height:auto"></p>`
    : undefined;
  const card = [
    logo,
    mailParagraph(content.greeting),
    ...content.paragraphs.map((value) => mailParagraph(value)),
    `<p style="margin:32px 0;text-align:center"><a href="${href}" style="display:inline-block;padding:12px 24px;border-radius:6px;background:${e(brand.buttonColor)};color:${e(brand.buttonTextColor)};font-weight:bold;text-decoration:none">${e(content.button.label)}</a></p>`,
    `<p style="margin:0 0 16px;${SMALL_PRINT_STYLE}">${e(content.linkHint)}<br><a href="${href}" style="color:${e(content.linkColor ?? TEXT_COLOR)};word-break:break-all">${href}</a></p>`,
    secondary === undefined
      ? undefined
      : `<p style="margin:0 0 16px">${e(secondary.text)}<br><a href="${e(secondary.href)}" style="color:${e(content.linkColor ?? TEXT_COLOR)};word-break:break-all">${e(secondary.href)}</a></p>`,
    ...content.notes.map((value) => mailParagraph(value, SMALL_PRINT_STYLE)),
    content.signature === undefined ? undefined : mailParagraph(content.signature),
  ].filter((part) => part !== undefined);
  const html = renderMailDocument({
    language: content.language,
    subject: content.subject,
    content: card.join('\n'),
    footer: content.footer,
  });
  const text = [
    content.greeting,
    ...content.paragraphs,
    `${content.button.label}${content.language === 'fr' ? '\u00a0' : ''}:\n${content.button.href}`, // French: no-break space before ':'
    ...(secondary === undefined ? [] : [`${secondary.text}\n${secondary.href}`]),
    ...content.notes,
    ...(content.signature === undefined ? [] : [content.signature]),
    `-- \n${content.footer}`,
  ].join('\n\n');
  return { html, text };
}
