import type { Language } from './language';

// Dates and times in e-mails, as a letter writes them: the server's invitations (valid until …) and
// the embedded provider's "password changed" notice. Only in e-mails, never on a page: Intl's output
// differs between engines, and a page must hydrate to the same text (durations.ts).

/** Where the tenants live: a date or a time is told as the clocks there show it. */
export const SWISS_TIME_ZONE = 'Europe/Zurich';

/** Each language's own way of writing a date and a time; English as in Britain, as its texts are. */
const LOCALES: Record<Language, string> = { de: 'de-CH', fr: 'fr-CH', it: 'it-CH', en: 'en-GB' };

/** French and Italian write the first of the month as an ordinal: 1er juillet, 1° luglio. */
const FIRST_OF_MONTH: Record<Language, string> = { de: '1', fr: '1er', it: '1°', en: '1' };

/** The day as a letter writes it: 25. November 2026, 25 novembre 2026, 25 November 2026. */
export function writtenDate(date: Date, language: Language): string {
  return new Intl.DateTimeFormat(LOCALES[language], {
    timeZone: SWISS_TIME_ZONE,
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  })
    .formatToParts(date)
    .map(({ type, value }) => (type === 'day' && value === '1' ? FIRST_OF_MONTH[language] : value))
    .join('');
}

/** The time on a 24-hour clock, as in every language here: 14:30. */
export function writtenTime(date: Date, language: Language): string {
  return new Intl.DateTimeFormat(LOCALES[language], {
    timeZone: SWISS_TIME_ZONE,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(date);
}
