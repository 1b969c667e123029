import type { Backoff } from '@concierge/database';

export interface RetrySchedule extends Backoff {
  /** Counted from when the message was written; after that it is logged and left alone. */
  giveUpAfterMs: number;
}

/** 1 s, 2 s, 4 s … capped at 5 min, for a day: a server that is down over night still gets everything. */
export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = {
  firstDelayMs: 1000,
  maxDelayMs: 5 * 60 * 1000,
  giveUpAfterMs: 24 * 60 * 60 * 1000,
};
