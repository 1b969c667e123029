import type { Language } from '@concierge/contracts';

// Dates as an office in Switzerland reads them, whatever the time zone of the server or the browser.
const LOCALES: Record<Language, string> = { de: 'de-CH', fr: 'fr-CH', it: 'it-CH', en: 'en-GB' };
const TIME_ZONE = 'Europe/Zurich';

const formats = new Map<string, Intl.DateTimeFormat>();

function format(language: Language, kind: 'date' | 'dateTime' | 'time'): Intl.DateTimeFormat {
  const key = `${language}:${kind}`;
  let found = formats.get(key);
  if (!found) {
    const options: Intl.DateTimeFormatOptions =
      kind === 'date'
        ? { dateStyle: 'medium' }
        : kind === 'time'
          ? { timeStyle: 'short' }
          : { dateStyle: 'medium', timeStyle: 'short' };
    found = new Intl.DateTimeFormat(LOCALES[language], { ...options, timeZone: TIME_ZONE });
    formats.set(key, found);
  }
  return found;
}

export function formatDate(iso: string, language: Language): string {
  return format(language, 'date').format(new Date(iso));
}

export function formatDateTime(iso: string, language: Language): string {
  return format(language, 'dateTime').format(new Date(iso));
}

export function formatTime(iso: string, language: Language): string {
  return format(language, 'time').format(new Date(iso));
}

const numbers = new Map<Language, Intl.NumberFormat>();

/** A count as the language writes it (de-CH: 1’234). */
export function formatNumber(value: number, language: Language): string {
  let found = numbers.get(language);
  if (!found) {
    found = new Intl.NumberFormat(LOCALES[language]);
    numbers.set(language, found);
  }
  return found.format(value);
}
