import { z } from 'zod';

// spec §5: "must match a general address pattern" — one @, no spaces, a dot in the domain.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
export const EMAIL_MAX_LENGTH = 254;

export function isEmailAddress(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(value);
}

/** Trims (spec §5: login trims on input) and checks the address pattern. */
export const emailSchema = z
  .string()
  .trim()
  .max(EMAIL_MAX_LENGTH)
  .refine(isEmailAddress, { message: 'The email address format is invalid.' });

/** Registration and all look-ups compare e-mails lower-cased. */
export function normaliseEmail(value: string): string {
  return value.trim().toLowerCase();
}
