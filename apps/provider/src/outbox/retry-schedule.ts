export interface RetrySchedule {
  /** Wait after the first failed attempt; doubles with every further failure. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** Counted from when the message was written; after that it is logged and left alone. */
  giveUpAfterMs: number;
}

/** 1 s, 2 s, 4 s … capped at 5 min, for a day: a server that is down over night still gets everything. */
export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = {
  firstDelayMs: 1000,
  maxDelayMs: 5 * 60 * 1000,
  giveUpAfterMs: 24 * 60 * 60 * 1000,
};

/** The wait before the next attempt, after `failedAttempts` (≥ 1) attempts have failed. */
export function retryDelayMs(failedAttempts: number, schedule: RetrySchedule): number {
  const exponent = Math.min(Math.max(failedAttempts - 1, 0), 30);
  return Math.min(schedule.firstDelayMs * 2 ** exponent, schedule.maxDelayMs);
}
