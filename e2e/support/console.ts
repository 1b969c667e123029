import { readFileSync } from 'node:fs';
import { closePdf, qrCodeOf, readPdf, textOf } from '@concierge/test-support/pdf-reader';
import type { Browser, Page } from '@playwright/test';
import { parseCsv } from '../../apps/server/src/admin/csv';
import { submitLogin } from './flows';
import { expect } from './test';
import { urls } from './urls';

/** A property manager of the embedded provider's demo accounts (apps/provider/src/users/users.ts). */
export interface ConsoleManager {
  email: string;
  password: string;
  tenant: string;
  tenantName: string;
  locale: string;
  language: 'de' | 'fr';
}

export const GERMAN_MANAGER: ConsoleManager = {
  email: 'verwaltung@concierge.test',
  password: 'Verwaltung-Passw0rd!',
  tenant: 'demo',
  tenantName: 'Demo Immobilien AG',
  locale: 'de-CH',
  language: 'de',
};

export const FRENCH_MANAGER: ConsoleManager = {
  email: 'gerance@concierge.test',
  password: 'Gerance-Passw0rd!',
  tenant: 'lacleman',
  tenantName: 'Gérance du Léman SA',
  locale: 'fr-CH',
  language: 'fr',
};

const readJson = (path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));

/** The console's own texts in a language: the tests find what a user reads. */
export function consoleTexts(language: string) {
  return readJson(`../../apps/console/src/i18n/locales/${language}.json`);
}

/** The portal's register page's texts in a language. */
export function registerTexts(language: string) {
  return readJson(`../../apps/portal/src/pages/Register/locales/${language}.json`);
}

/** A text with its {{placeholders}} filled in, as the apps' translators do. */
export function filled(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));
}

/** Signs in at the console as its user does: its start page, the provider's hosted login page, back. */
async function signInToConsole(page: Page, manager: ConsoleManager) {
  const texts = consoleTexts(manager.language);
  await page.goto(`${urls.portal}/console`);
  await page.getByRole('link', { name: texts.signIn.button, exact: true }).click();
  await page.waitForURL((url) => url.href.startsWith(`${urls.portal}/login?`));
  await submitLogin(page, manager.email, manager.password);
  await page.waitForURL(`${urls.portal}/console`);
  await expect(page.locator('.console-user')).toContainText(manager.email);
}

/** A browser context of its own, signed in at the console: another person at another computer. */
export async function consoleSession(
  browser: Browser,
  manager: ConsoleManager,
  options: { javaScriptEnabled?: boolean; viewport?: { width: number; height: number } } = {},
) {
  const context = await browser.newContext({ locale: manager.locale, ...options });
  const page = await context.newPage();
  await signInToConsole(page, manager);
  return { context, page };
}

const UNIT_LANGUAGES = ['de', 'fr', 'it', 'en'] as const;
const UNIT_NAMES = ['Anna Müller', 'Élodie Favre', 'Giulia Rossi', 'Siobhan O’Neill', ''];

/** A units file as an office exports it from its spreadsheet: `count` flats, the letters' languages mixed. */
export function unitsCsv(count: number): { csv: string; units: string[] } {
  const units = Array.from(
    { length: count },
    (_, index) => `${Math.floor(index / 4) + 1}.${(index % 4) + 1}`,
  );
  const lines = units.map(
    (unit, index) =>
      `${unit},${UNIT_NAMES[index % UNIT_NAMES.length]},${UNIT_LANGUAGES[index % UNIT_LANGUAGES.length]}`,
  );
  return { csv: `unit,name,language\n${lines.join('\n')}\n`, units };
}

/** The rows of a batch page's codes table: unit, state (the badge's text) and code of each. */
export async function codeRows(page: Page): Promise<{ unit: string; state: string; code: string }[]> {
  return page.locator('tr:has(.registration-code)').evaluateAll((rows) =>
    rows.map((row) => ({
      unit: row.querySelector('th')?.textContent?.trim() ?? '',
      state: row.querySelector('.mantine-Badge-root')?.textContent?.trim() ?? '',
      code: row.querySelector('.registration-code')?.textContent?.trim() ?? '',
    })),
  );
}

/** A batch's export as records by header name (`unit`, `code`, `register_url`, …). */
export function exportRecords(csv: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(csv).map((record) => record.fields);
  return rows.map((fields) => Object.fromEntries(header!.map((name, index) => [name, fields[index] ?? ''])));
}

/** Each page of a letters PDF: its text, and what its QR code reads as a phone's camera would. */
export async function readLetters(
  bytes: Uint8Array,
): Promise<{ text: string; qrCode: string | undefined }[]> {
  const pdf = await readPdf(bytes);
  try {
    const pages = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      // A link broken over two lines reads whole with the lines put together.
      pages.push({ text: await textOf(pdf, number, ''), qrCode: await qrCodeOf(pdf, number) });
    }
    return pages;
  } finally {
    await closePdf(pdf);
  }
}

/** `#rrggbb` as getComputedStyle gives it. */
export function rgb(hex: string): string {
  const value = Number.parseInt(hex.slice(1), 16);
  return `rgb(${value >> 16}, ${(value >> 8) & 255}, ${value & 255})`;
}

/**
 * A colour one step of blue away from `hex`: a brand colour of its own, which the tests find by its
 * exact value, but which no picture comparison tells from the shipped one (the gallery's tolerance,
 * playwright.config.ts), so that a spec taking pictures of the tenant at that moment still passes.
 */
export function nudged(hex: string): string {
  const value = Number.parseInt(hex.slice(1), 16);
  const blue = value & 255;
  return `#${((value & 0xffff00) | (blue === 255 ? 254 : blue + 1)).toString(16).padStart(6, '0')}`;
}
