import type { Language } from '@concierge/contracts';
import de from './locales/de.json';
import en from './locales/en.json';
import fr from './locales/fr.json';
import it from './locales/it.json';

/** The German file defines the keys; the others must have the same ones, or this does not compile. */
export type MailTexts = typeof de;

export const MAIL_TEXTS: Record<Language, MailTexts> = { de, en, fr, it };

/** Fills `{{name}}` placeholders; one with no value stays visible, so a missing value is noticed. */
export function interpolate(text: string, values: Readonly<Record<string, string | number>>): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (placeholder, name: string) =>
    name in values ? String(values[name]) : placeholder,
  );
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
