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
    expect(mail.text).toContain('am 01.07.2026 um 14:05 Uhr');
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
    expect(mail.text).toContain('01.07.2026');
    expect(mail.text).toContain('14:05');
  });
});
