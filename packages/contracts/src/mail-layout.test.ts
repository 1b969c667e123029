import { describe, expect, it } from 'vitest';
import { contrastRatio } from './contrast';
import { MAIL_COLORS, renderMailLayout } from './mail-layout';

const FOOTER = 'Dieses E-Mail wurde automatisch versendet.';

const mail = renderMailLayout({
  language: 'de',
  subject: 'Betreff',
  brand: { tenantName: 'Demo', buttonColor: '#0b7285', buttonTextColor: '#ffffff' },
  greeting: 'Guten Tag',
  paragraphs: ['Text'],
  button: { label: 'Konto aktivieren', href: 'https://login.example.ch/x' },
  linkHint: 'Falls die Schaltfläche nicht funktioniert:',
  notes: ['Der Link ist 48 Stunden gültig.'],
  footer: FOOTER,
});

/** The colour a paragraph with this text is written in, as the HTML says. */
function colorOf(html: string, text: string): string | undefined {
  const paragraph = [...html.matchAll(/<p style="([^"]*)">([^<]*)/g)].find((match) => match[2] === text);
  return /(?:^|;)color:(#[0-9a-f]{6})/i.exec(paragraph?.[1] ?? '')?.[1];
}

// Every mail of both apps (activation, invitation, reset, password changed) is in this layout.
describe('the mail layout’s colours (WCAG 1.4.3)', () => {
  it('writes the footer, on the grey around the card, at 4.5:1 or more', () => {
    const footer = colorOf(mail.html, FOOTER);
    expect(footer).toBe(MAIL_COLORS.mutedText);
    expect(mail.html).toContain(`<body style="margin:0;padding:0;background:${MAIL_COLORS.background}`);
    expect(contrastRatio(footer!, MAIL_COLORS.background)).toBeGreaterThanOrEqual(4.5);
  });

  it('writes the small print and the text on the white card at 4.5:1 or more', () => {
    const smallPrint = colorOf(mail.html, 'Der Link ist 48 Stunden gültig.');
    expect(smallPrint).toBe(MAIL_COLORS.mutedText);
    expect(contrastRatio(smallPrint!, MAIL_COLORS.card)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(MAIL_COLORS.text, MAIL_COLORS.card)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(MAIL_COLORS.text, MAIL_COLORS.background)).toBeGreaterThanOrEqual(4.5);
  });

  it('uses no text colour other than the checked ones and the brand’s button text', () => {
    const colors = new Set(
      [...mail.html.matchAll(/(?:^|[;"\s])color:(#[0-9a-f]{6})/gi)].map((match) => match[1]),
    );
    expect([...colors].sort()).toEqual([MAIL_COLORS.text, MAIL_COLORS.mutedText, '#ffffff'].sort());
  });
});
