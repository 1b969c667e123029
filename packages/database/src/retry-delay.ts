/** Exponential backoff of a stored job (both apps' outboxes): the first wait, doubling up to a cap. */
export interface Backoff {
  /** Wait after the first failed attempt; doubles with every further failure. */
  firstDelayMs: number;
  maxDelayMs: number;
}

/** The wait before the next attempt, after `failedAttempts` (≥ 1) attempts have failed. */
export function retryDelayMs(failedAttempts: number, backoff: Backoff): number {
  const exponent = Math.min(Math.max(failedAttempts - 1, 0), 30);
  return Math.min(backoff.firstDelayMs * 2 ** exponent, backoff.maxDelayMs);
}
