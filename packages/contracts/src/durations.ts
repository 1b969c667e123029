import type { Language } from './language';

// Durations in texts (issue 25): a message that says how long something lasts takes the number from
// the configuration that enforces it, never "a few minutes". The portal, the server's e-mails and
// the embedded provider's e-mails format them here, alike.

/**
 * How long a password-reset link lives, in minutes, unless configured (`RESET_LINK_LIFETIME_MINUTES`):
 * the embedded provider's links, and the server's default for what it says about cidaas's links.
 * One value for both, so that in development the page and the e-mail cannot disagree. An hour, the
 * value docs/cidaas-setup.md recommends (issue 28: 30 minutes lapsed while a mail was delayed).
 */
export const DEFAULT_RESET_LINK_LIFETIME_MINUTES = 60;

type DurationUnit = 'minute' | 'hour' | 'day';

/**
 * The unit words, one and other (all these four languages need for counts of 1 and more), as CLDR
 * has them (Intl.NumberFormat, style `unit`, unitDisplay `long`; durations.test.ts compares). Not
 * Intl itself: a page is rendered on the server and hydrated in the browser, and Intl's output
 * differs between engines — Node 24 writes "1 heure" with a no-break space and "1 minute" with a
 * space, Node 20 both with a space, a browser before Safari 14.1 or Chrome 77 throws — and text that
 * differs at hydration makes React throw the server's HTML away.
 */
const UNIT_WORDS: Record<Language, Record<DurationUnit, readonly [one: string, other: string]>> = {
  de: { minute: ['Minute', 'Minuten'], hour: ['Stunde', 'Stunden'], day: ['Tag', 'Tage'] },
  fr: { minute: ['minute', 'minutes'], hour: ['heure', 'heures'], day: ['jour', 'jours'] },
  it: { minute: ['minuto', 'minuti'], hour: ['ora', 'ore'], day: ['giorno', 'giorni'] },
  en: { minute: ['minute', 'minutes'], hour: ['hour', 'hours'], day: ['day', 'days'] },
};

/** "30 Minuten", "1 heure", "3 giorni": a whole count of one unit. */
export function formatUnitCount(count: number, unit: DurationUnit, language: Language): string {
  const [one, other] = UNIT_WORDS[language][unit];
  return `${count} ${count === 1 ? one : other}`;
}

const HOUR = 60;
const DAY = 24 * HOUR;

/**
 * How long something lives, e.g. a link: "30 Minuten", "1 Stunde", "72 Stunden", "7 Tage". Whole
 * hours up to three days (as links usually say: 24, 48, 72 hours), whole days beyond; what is not
 * whole stays in the smaller unit, so the text says exactly what is enforced (90 minutes are
 * "90 Minuten", never "2 Stunden").
 */
export function formatLifetime(minutes: number, language: Language): string {
  const whole = Math.max(1, Math.ceil(minutes));
  if (whole > 3 * DAY && whole % DAY === 0) return formatUnitCount(whole / DAY, 'day', language);
  if (whole >= HOUR && whole % HOUR === 0) return formatUnitCount(whole / HOUR, 'hour', language);
  return formatUnitCount(whole, 'minute', language);
}

/** A `Retry-After` in seconds as whole minutes to wait: rounded up, at least 1. */
export function waitMinutes(retryAfterSeconds: number): number {
  return Math.max(1, Math.ceil(retryAfterSeconds / 60));
}

/** How long to wait after a refusal (`Retry-After`, seconds), in minutes: "1 Minute", "15 minuti". */
export function formatWait(retryAfterSeconds: number, language: Language): string {
  return formatUnitCount(waitMinutes(retryAfterSeconds), 'minute', language);
}
