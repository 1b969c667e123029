import { LANGUAGES } from '@concierge/contracts';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BRAND_COLOR } from './brand-color';
import { MAIL_TEXTS } from './mail-texts';
import { renderResetMail } from './reset-mail';

function flatten(value: unknown, prefix = ''): Record<string, string> {
  if (typeof value === 'string') return { [prefix]: value };
  return Object.assign(
    {},
    ...Object.entries(value as Record<string, unknown>).map(([key, child]) =>
      flatten(child, prefix ? `${prefix}.${key}` : key),
    ),
  );
}

const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();

describe('reset e-mail', () => {
  const input = {
    to: 'anna@example.com',
    language: 'de' as const,
    tenantName: 'Müller & <Söhne> "AG"',
    link: 'http://portal.test/password-set?exchangeId=a&rprq=b&email=anna%40example.com',
    lifetimeMinutes: 30,
  };

  it('has the same keys and placeholders in every language, none empty', () => {
    const german = flatten(MAIL_TEXTS.de);
    for (const language of LANGUAGES) {
      const texts = flatten(MAIL_TEXTS[language]);
      expect(Object.keys(texts).sort()).toEqual(Object.keys(german).sort());
      for (const [key, text] of Object.entries(texts)) {
        expect(text.trim(), `${language} ${key}`).not.toBe('');
        expect(placeholders(text), `${language} ${key}`).toEqual(placeholders(german[key] ?? ''));
      }
    }
  });

  it('escapes every value in the HTML part and keeps the text part plain', () => {
    const mail = renderResetMail(input);
    expect(mail.subject).toBe('Neues Passwort für das Mieterportal Müller & <Söhne> "AG"');
    expect(mail.html).toContain('Müller &#38; &#60;Söhne&#62; &#34;AG&#34;');
    expect(mail.html).not.toContain('<Söhne>');
    expect(mail.html).toContain(
      'href="http://portal.test/password-set?exchangeId=a&#38;rprq=b&#38;email=anna%40example.com"',
    );
    expect(mail.text).toContain(`${input.link}\n`);
    expect(mail.text).toContain('Der Link ist 30 Minuten gültig.');
    expect(mail.text).not.toContain('{{');
    expect(mail.html).not.toContain('{{');
  });

  it('says the lifetime it is given (RESET_LINK_LIFETIME_MINUTES) as each language writes it', () => {
    expect(renderResetMail({ ...input, lifetimeMinutes: 60 }).text).toContain(
      'Der Link ist 1 Stunde gültig.',
    );
    expect(renderResetMail({ ...input, lifetimeMinutes: 90 }).text).toContain(
      'Der Link ist 90 Minuten gültig.',
    );
    expect(renderResetMail({ ...input, language: 'it', lifetimeMinutes: 120 }).text).toContain(
      'Il link è valido per 2 ore.',
    );
    expect(renderResetMail({ ...input, language: 'fr', lifetimeMinutes: 1 }).text).toContain(
      'Ce lien est valable 1 minute.',
    );
    expect(renderResetMail({ ...input, language: 'en', lifetimeMinutes: 24 * 60 }).text).toContain(
      'The link is valid for 24 hours.',
    );
  });

  it('uses the brand colour for the button, else a dark blue with white text', () => {
    expect(renderResetMail(input).html).toContain(`background:${DEFAULT_BRAND_COLOR};color:#ffffff`);
    expect(renderResetMail({ ...input, brandColor: '#ffe066' }).html).toContain(
      'background:#ffe066;color:#000000',
    );
  });

  it('spells the link out in the brand colour only where it reads on white (4.5:1)', () => {
    expect(renderResetMail({ ...input, brandColor: '#1864ab' }).html).toContain('style="color:#1864ab;');
    for (const brandColor of ['#f59f00', '#2b8a3e']) {
      expect(renderResetMail({ ...input, brandColor }).html).toContain('style="color:#1f2933;');
    }
  });

  it('writes French typography in the text part too: a no-break space before the colon', () => {
    const mail = renderResetMail({ ...input, language: 'fr' });
    expect(mail.text).toContain(`Définir un nouveau mot de passe\u00a0:\n${input.link}`);
    expect(mail.text).not.toMatch(/[^\u00a0][:;!?](\s|$)/);
    expect(renderResetMail(input).text).toContain(`Neues Passwort festlegen:\n${input.link}`);
  });

  it.each(LANGUAGES)('renders in %s', (language) => {
    const mail = renderResetMail({ ...input, language });
    expect(mail.html).toContain(`<html lang="${language}">`);
    expect(mail.text).toContain(MAIL_TEXTS[language].reset.ignore);
  });
});
