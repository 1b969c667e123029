// The letters as a reader gets them: the PDF read back with pdf.js, each page's text, and its QR
// code decoded from the page as pdf.js paints it — what a phone's camera sees on paper.
import { readFileSync } from 'node:fs';
import type { Language } from '@concierge/contracts';
import { closePdf, qrCodeOf, readPdf, textOf } from '@concierge/test-support/pdf-reader';
import { describe, expect, it, onTestFinished } from 'vitest';
import { type LetterBrand, type LetterUnit, renderLetters } from './letters-pdf';

const brand: LetterBrand = {
  displayName: 'Gérance du Léman SA',
  primaryColor: '#0b7285',
  logo: { svg: readFileSync(new URL('../../../../../tenants/lacleman/logo.svg', import.meta.url), 'utf8') },
  contact: {
    name: 'Gérance du Léman SA',
    phone: '+41 21 987 65 43',
    email: 'gerance@lacleman.example',
    officeHours: {
      de: 'Montag bis Freitag, 9–12 Uhr',
      fr: 'du lundi au vendredi, de 9 h à 12 h',
      it: 'dal lunedì al venerdì, ore 9–12',
      en: 'Monday to Friday, 9 am–12 noon',
    },
  },
};
// Midnight at the start of 1 January 2027 in Zurich: the last day that registers is 31 December.
const expiresAt = new Date('2026-12-31T23:00:00Z');

/** Each language's term for the code, its way of writing the last day, and its office hours. */
const EXPECTED: Record<Language, { term: string; lastDay: string; hours: string }> = {
  de: { term: 'Registrierungscode', lastDay: '31. Dezember 2026', hours: 'Montag bis Freitag' },
  fr: { term: 'code d’inscription', lastDay: '31 décembre 2026', hours: 'du lundi au vendredi' },
  it: { term: 'codice di registrazione', lastDay: '31 dicembre 2026', hours: 'dal lunedì al venerdì' },
  en: { term: 'registration code', lastDay: '31 December 2026', hours: 'Monday to Friday' },
};

function letterFor(unit: string, language: Language, name: string | null, code: string): LetterUnit {
  const registerUrl = `https://portal.lacleman.example/register?registrationcode=${code}&subdomain=lacleman`;
  return { unit, name, language, code, registerUrl };
}

const units = [
  letterFor('Wohnung 1.1', 'de', 'Anna Müller-Brändli', '3f2b8c1e-9a4d-4e6b-8f0a-1c2d3e4f5a6b'),
  letterFor('Appartement 1.2', 'fr', null, '0b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e'),
  letterFor('Appartamento 2.1', 'it', 'Giulia Rossi', 'a1b2c3d4-e5f6-4a7b-b8c9-d0e1f2a3b4c5'),
  letterFor('Flat 2.2', 'en', 'Siobhan O’Neill', '12345678-9abc-4def-8123-456789abcdef'),
  letterFor('Appartement 3.1', 'fr', 'Élodie Faure', 'fedcba98-7654-4321-a987-6543210fedcb'),
  letterFor('Wohnung 3.2', 'de', null, '0f1e2d3c-4b5a-4968-b7a6-958473625140'),
];

describe('renderLetters', () => {
  it('prints a page per unit, in its language, with its own code, link and QR code', async () => {
    const pdf = await readPdf(
      await renderLetters({ brand, batch: { building: 'Rue du Lac 3, 1003 Lausanne', expiresAt }, units }),
    );
    onTestFinished(() => closePdf(pdf));
    expect(pdf.numPages).toBe(units.length);
    for (const [index, unit] of units.entries()) {
      const text = await textOf(pdf, index + 1);
      const expected = EXPECTED[unit.language];
      expect(text).toContain(unit.code);
      expect(text).toContain(unit.unit);
      expect(text).toContain('Rue du Lac 3, 1003 Lausanne');
      if (unit.name) expect(text).toContain(unit.name);
      expect(text).toContain(expected.term);
      for (const other of Object.values(EXPECTED).filter((entry) => entry !== expected))
        expect(text).not.toContain(other.term);
      expect(text).toContain(expected.lastDay);
      expect(text).toContain(expected.hours);
      expect(text).toContain('+41 21 987 65 43');
      // The link in full: its lines put together give it back, character for character.
      expect(await textOf(pdf, index + 1, '')).toContain(unit.registerUrl);
      expect(await qrCodeOf(pdf, index + 1), `page ${index + 1}`).toBe(unit.registerUrl);
    }
  });

  it('keeps a page per unit for long and unusual names, and leaves out what the batch does not have', async () => {
    const names = ['«Müller-Brändli, Zoë» – Kovačević’s Erben', 'Łukasz Şahin-Nguyễn'];
    const building = `Überbauung «Sonnenhalde», ${'Résidence du Château-d’Œx, '.repeat(12)}3780 Gstaad`;
    const letters = names.map((name, index) =>
      letterFor(`Wohnung ${index + 1}`, 'de', name, units[index]!.code),
    );
    const pdf = await readPdf(
      await renderLetters({
        // A brand colour that does not read on white, and no contact.
        brand: { displayName: 'Alpenblick Wohnen AG', primaryColor: '#f59f00', logo: brand.logo },
        batch: { building, expiresAt: null },
        units: letters,
      }),
    );
    onTestFinished(() => closePdf(pdf));
    expect(pdf.numPages).toBe(letters.length);
    for (const [index, { name, registerUrl }] of letters.entries()) {
      const text = await textOf(pdf, index + 1);
      expect(text).toContain(name!);
      expect(text).toContain('Überbauung «Sonnenhalde», Résidence du Château-d’Œx');
      expect(text).not.toContain('gültig');
      expect(text).not.toContain('Ihre Verwaltung');
      expect(await qrCodeOf(pdf, index + 1)).toBe(registerUrl);
    }
  });

  it('refuses a unit whose code is no registration code', async () => {
    const wrong = { ...units[0]!, code: 'not-a-code' };
    await expect(
      renderLetters({ brand, batch: { building: 'X', expiresAt: null }, units: [wrong] }),
    ).rejects.toThrow('the code of unit "Wohnung 1.1" is no registration code');
  });
});
