import type { Backoff } from '@concierge/database';

/** How often and how long the outbox keeps trying one e-mail. */
export interface RetryPolicy extends Backoff {
  /** After this many failed attempts the e-mail is given up (and logged as an error). */
  maxAttempts: number;
}

// 5 s doubling to 1 h; 20 attempts span about 11 hours — long enough for a relay's maintenance
// window, short enough that an activation link sent that late is still valid (72 h by default).
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  firstDelayMs: 5000,
  maxDelayMs: 3_600_000,
  maxAttempts: 20,
};
