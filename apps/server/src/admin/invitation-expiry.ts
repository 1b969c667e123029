import { SWISS_TIME_ZONE } from '@concierge/contracts';

// When an invitation stops registering (issue 30). Its e-mail names a day ("valid up to and
// including 25 November 2026"), so the invitation ends with that day as the invitee's clock shows
// it, at midnight in Zurich: thirty times 24 hours would end at the hour it happened to be sent,
// which no date in a mail can say, and an invitee opening it on the evening of the day named would
// find it expired.

const WALL_CLOCK = new Intl.DateTimeFormat('en-GB', {
  timeZone: SWISS_TIME_ZONE,
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
  hourCycle: 'h23',
});

/** The date and time a clock in Zurich shows at `at`. */
function swissWallClock(at: Date): { year: number; month: number; day: number; utcOfWallClock: number } {
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    Number(WALL_CLOCK.formatToParts(at).find((entry) => entry.type === type)?.value);
  const [year, month, day] = [part('year'), part('month'), part('day')];
  return {
    year,
    month,
    day,
    utcOfWallClock: Date.UTC(year, month - 1, day, part('hour'), part('minute'), part('second')),
  };
}

/** How far Zurich's clocks are ahead of UTC at `at`, in milliseconds (one or two hours). */
function swissOffsetMs(at: Date): number {
  const wholeSeconds = new Date(Math.floor(at.getTime() / 1000) * 1000);
  return swissWallClock(wholeSeconds).utcOfWallClock - wholeSeconds.getTime();
}

/**
 * Midnight at the start of a day in Zurich; `day` may run past the month's end (Date.UTC carries
 * it over). Zurich changes its clocks at 02:00 and 03:00, never at midnight, so the offset an hour
 * either side of midnight is the one at midnight.
 */
function startOfSwissDay(year: number, month: number, day: number): Date {
  const midnightAsUtc = Date.UTC(year, month - 1, day);
  return new Date(midnightAsUtc - swissOffsetMs(new Date(midnightAsUtc)));
}

/**
 * When an invitation sent at `sentAt` expires: at the end of the day `validityDays` after the day it
 * was sent (INVITATION_VALIDITY_DAYS), midnight in Zurich.
 */
export function invitationExpiry(sentAt: Date, validityDays: number): Date {
  const sent = swissWallClock(sentAt);
  return startOfSwissDay(sent.year, sent.month, sent.day + validityDays + 1);
}

/** The last day an invitation expiring at `expiresAt` registers: the day its e-mail names. */
export function lastValidDay(expiresAt: Date): Date {
  return new Date(expiresAt.getTime() - 1);
}

/**
 * The end of a day an office names (`2027-03-31`: a batch's letters register up to and including
 * it): midnight in Zurich after it. Undefined for text that is no such day.
 */
export function endOfSwissDay(isoDate: string): Date | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return startOfSwissDay(year, month, day + 1);
}
