// spec §5: "must match a general address pattern" — one @, no spaces, a dot in the domain.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
export const EMAIL_MAX_LENGTH = 254;

export function isEmailAddress(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(value);
}

/** Registration and all look-ups compare e-mails lower-cased. */
export function normaliseEmail(value: string): string {
  return value.trim().toLowerCase();
}
