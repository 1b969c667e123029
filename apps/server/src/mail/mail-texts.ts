import type { Language } from '@concierge/contracts';
import de from './locales/de.json';
import en from './locales/en.json';
import fr from './locales/fr.json';
import it from './locales/it.json';

/** The German file defines the keys; the others must have the same ones, or this does not compile. */
export type MailTexts = typeof de;

export const MAIL_TEXTS: Record<Language, MailTexts> = { de, en, fr, it };

export type TemplateValues = Readonly<Record<string, string | number>>;

/**
 * Fills `{{name}}` placeholders with plain text. A placeholder without a value is a programming
 * error (a text and its caller disagree), so it throws instead of sending a half-filled e-mail.
 */
export function fillText(template: string, values: TemplateValues): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_placeholder, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`mail text placeholder {{${name}}} has no value`);
    return String(value);
  });
}

/** The same for HTML: the text and every value in it are escaped, so no value can add markup. */
export function fillHtml(template: string, values: TemplateValues): string {
  return escapeHtml(fillText(template, values));
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
