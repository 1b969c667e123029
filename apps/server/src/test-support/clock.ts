import { onTestFinished, vi } from 'vitest';

const HOUR_MS = 3600_000;

/**
 * Moves this test's clock to a second after the next full hour, for the tests of the rate limits: they
 * count in fixed windows (http/rate-limit.ts) of a minute, 15 minutes or an hour, and an hour's start
 * begins each of them, so that a test's requests never fall into two windows, wherever the real clock
 * stands. Only Date is faked, and it runs on at the real pace; the real clock is back after the test.
 */
export function startAtAFullHour(): void {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(Math.ceil(Date.now() / HOUR_MS) * HOUR_MS + 1000);
  onTestFinished(() => {
    vi.useRealTimers();
  });
}
