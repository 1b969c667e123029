import { LANGUAGES } from '@concierge/contracts';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BRAND_COLOR } from './brand-color';
import { MAIL_TEXTS } from './mail-texts';
import { renderPasswordChangedMail } from './password-changed-mail';

describe('"password changed" e-mail', () => {
  const input = {
    to: 'anna@example.com',
    language: 'de' as const,
    tenantName: 'Müller & <Söhne> "AG"',
    // 12:05 UTC is 14:05 in Zurich in summer.
    changedAt: new Date('2026-07-01T12:05:00Z'),
  };

  it('tells what happened and when, in Swiss time, and escapes the tenant name in the HTML', () => {
    const mail = renderPasswordChangedMail(input);
    expect(mail.to).toBe('anna@example.com');
    expect(mail.subject).toBe('Ihr Passwort für das Mieterportal Müller & <Söhne> "AG" wurde geändert');
    expect(mail.text).toContain('am 1. Juli 2026 um 14:05 Uhr');
    expect(mail.html).toContain('Müller &#38; &#60;Söhne&#62; &#34;AG&#34;');
    expect(mail.html).not.toContain('<Söhne>');
    expect(mail.text).toContain('an Ihre Verwaltung');
    expect(`${mail.text}${mail.html}`).not.toContain('{{');
  });

  it('has no link and nothing to click', () => {
    for (const language of LANGUAGES) {
      const mail = renderPasswordChangedMail({ ...input, language });
      expect(mail.text).not.toMatch(/https?:\/\//);
      expect(mail.html).not.toMatch(/https?:\/\//);
      expect(mail.html).not.toContain('<a ');
    }
  });

  it('writes Swiss German with "ss"', () => {
    const german = Object.values(MAIL_TEXTS.de.passwordChanged).join(' ');
    expect(german).not.toContain('ß');
  });

  it('shows the brand colour, else the default dark blue', () => {
    expect(renderPasswordChangedMail(input).html).toContain(`border-top:4px solid ${DEFAULT_BRAND_COLOR}`);
    expect(renderPasswordChangedMail({ ...input, brandColor: '#f59f00' }).html).toContain(
      'border-top:4px solid #f59f00',
    );
  });

  it.each(LANGUAGES)('renders in %s', (language) => {
    const mail = renderPasswordChangedMail({ ...input, language });
    expect(mail.html).toContain(`<html lang="${language}">`);
    expect(mail.text).toContain(MAIL_TEXTS[language].passwordChanged.notYou);
  });

  // Each language's own style, in Zurich time: the first of the month as French and Italian write
  // it, and a winter date (UTC+1) beside the summer one (UTC+2).
  it.each([
    ['de', '2026-07-01T12:05:00Z', 'am 1. Juli 2026 um 14:05 Uhr'],
    ['de', '2026-11-25T13:30:00Z', 'am 25. November 2026 um 14:30 Uhr'],
    ['fr', '2026-07-01T12:05:00Z', 'le 1er juillet 2026 à 14:05'],
    ['fr', '2026-11-25T13:30:00Z', 'le 25 novembre 2026 à 14:30'],
    ['it', '2026-07-01T12:05:00Z', 'in data 1° luglio 2026 alle ore 14:05'],
    ['it', '2026-11-08T08:30:00Z', 'in data 8 novembre 2026 alle ore 09:30'],
    ['en', '2026-07-01T12:05:00Z', 'on 1 July 2026 at 14:05'],
    ['en', '2026-11-25T13:30:00Z', 'on 25 November 2026 at 14:30'],
  ] as const)('tells the time in %s as its readers write it (%s)', (language, changedAt, written) => {
    const mail = renderPasswordChangedMail({ ...input, language, changedAt: new Date(changedAt) });
    expect(mail.text).toContain(written);
    expect(mail.html).toContain(written);
  });
});
