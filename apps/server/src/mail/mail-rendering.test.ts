import { describe, expect, it } from 'vitest';
import { renderActivationMail } from './activation-mail';
import { renderAlreadyActiveMail } from './already-active-mail';
import { renderInvitationMail } from './invitation-mail';
import { activationLink, invitationLink, passwordResetLink, registerLink } from './links';
import type { MailBrand } from './mail-brand';

const brand: MailBrand = {
  tenantName: 'Gérance <du> Léman & Co',
  buttonColor: '#0b7285',
  buttonTextColor: '#ffffff',
  logoUrl: 'https://login.example.ch/logo/brand.jpg?subdomain=lacleman',
};

describe('links', () => {
  it('build the portal pages the spec names, with every value encoded', () => {
    expect(
      activationLink('https://login.example.ch', {
        email: 'a+b@x.ch',
        verificationId: 'v/1',
        subdomain: 'demo',
      }),
    ).toBe(
      'https://login.example.ch/verification-complete?email=a%2Bb%40x.ch&verificationid=v%2F1&subdomain=demo',
    );
    expect(
      invitationLink('https://login.example.ch', {
        code: 'c',
        email: 'a@x.ch',
        inviteId: 'i',
        subdomain: 'demo',
      }),
    ).toBe('https://login.example.ch/register?registrationcode=c&email=a%40x.ch&invite_id=i&subdomain=demo');
    expect(registerLink('https://login.example.ch', { code: 'c', subdomain: 'demo' })).toBe(
      'https://login.example.ch/register?registrationcode=c&subdomain=demo',
    );
  });
});

describe('the activation e-mail', () => {
  const link =
    'https://login.example.ch/verification-complete?email=a%40x.ch&verificationid=abc&subdomain=lacleman';
  const mail = renderActivationMail({ to: 'a@x.ch', language: 'fr', brand, link, validHours: 48 });

  it('speaks the language and names the tenant in the subject', () => {
    expect(mail.subject).toBe('Activez votre compte sur le portail des locataires Gérance <du> Léman & Co');
    expect(mail.text).toContain('Ce lien est valable 48 heures.');
    expect(mail.text).toContain(link);
  });

  it('says the lifetime it is given (ACTIVATION_LINK_TTL_HOURS) as each language writes it', () => {
    const expiry = (language: 'de' | 'fr' | 'it' | 'en', validHours: number) =>
      renderActivationMail({ to: 'a@x.ch', language, brand, link, validHours }).text;
    expect(expiry('de', 1)).toContain('Der Link ist 1 Stunde gültig.');
    expect(expiry('de', 72)).toContain('Der Link ist 72 Stunden gültig.');
    expect(expiry('it', 1)).toContain('Il link è valido per 1 ora.');
    expect(expiry('en', 7 * 24)).toContain('The link is valid for 7 days.');
    expect(expiry('fr', 24)).toContain('Ce lien est valable 24 heures.');
  });

  it('wears the brand: logo, button colours, and escapes every value', () => {
    expect(mail.html).toContain(
      `<img src="${brand.logoUrl.replace('&', '&#38;')}" alt="Gérance &#60;du&#62; Léman &#38; Co"`,
    );
    expect(mail.html).toContain('background:#0b7285;color:#ffffff');
    expect(mail.html).toContain(`href="${link.replaceAll('&', '&#38;')}"`);
    expect(mail.html).not.toContain('<du>');
  });

  it('writes French typography in the text part too: a no-break space before the colon', () => {
    expect(mail.text).toContain(`Activer le compte\u00a0:\n${link}`);
    expect(mail.text).not.toMatch(/[^\u00a0][:;!?](\s|$)/);
    const german = renderActivationMail({ to: 'a@x.ch', language: 'de', brand, link, validHours: 48 });
    expect(german.text).toContain(`Konto aktivieren:\n${link}`);
  });
});

describe('the invitation e-mail', () => {
  it('carries the code and the register link', () => {
    const link =
      'https://login.example.ch/register?registrationcode=c0de&email=a%40x.ch&invite_id=i&subdomain=demo';
    const mail = renderInvitationMail({
      to: 'a@x.ch',
      language: 'de',
      brand,
      code: 'c0de',
      link,
      lastValidDay: new Date('2026-12-25T22:59:59.999Z'),
    });
    expect(mail.kind).toBe('invitation');
    expect(mail.subject).toBe('Einladung zum Mieterportal Gérance <du> Léman & Co');
    expect(mail.text).toContain('Ihr Registrierungscode: c0de');
    expect(mail.text).toContain(link);
    expect(mail.html).toContain('Jetzt registrieren');
  });

  it('names its last valid day as each language writes a date, on the clocks of Zurich', () => {
    // The first moment of 1 July in Zurich, still 30 June in UTC.
    const lastValidDay = new Date('2026-06-30T22:00:00Z');
    const expiry = (language: 'de' | 'fr' | 'it' | 'en') =>
      renderInvitationMail({ to: 'a@x.ch', language, brand, code: 'c', link: 'https://x.ch', lastValidDay })
        .text;
    expect(expiry('de')).toContain('Die Einladung ist bis und mit 1. Juli 2026 gültig.');
    expect(expiry('fr')).toContain('L’invitation est valable jusqu’au 1er juillet 2026 inclus.');
    expect(expiry('it')).toContain('L’invito è valido fino al giorno 1° luglio 2026 incluso.');
    expect(expiry('en')).toContain('The invitation is valid up to and including 1 July 2026.');
  });
});

describe('the "already active" note', () => {
  it('offers signing in as its button and the reset page as a link of its own, both clickable', () => {
    const resetLink = passwordResetLink('https://login.example.ch', {
      email: 'a+b@x.ch',
      subdomain: 'lacleman',
    });
    expect(resetLink).toBe(
      'https://login.example.ch/password-reset-init?email=a%2Bb%40x.ch&subdomain=lacleman',
    );
    const mail = renderAlreadyActiveMail({
      to: 'a+b@x.ch',
      language: 'de',
      brand,
      signInLink: 'https://portal.lacleman.example/login',
      resetLink,
    });
    expect(mail.kind).toBe('already-active');
    expect(mail.subject).toBe('Ihr Konto im Mieterportal Gérance <du> Léman & Co ist bereits aktiviert');
    expect(mail.html).toContain('href="https://portal.lacleman.example/login" style="display:inline-block');
    expect(mail.html).toContain(`<a href="${resetLink.replaceAll('&', '&#38;')}"`);
    expect(mail.html).toContain('Passwort vergessen oder Konto gesperrt?');
  });
});
