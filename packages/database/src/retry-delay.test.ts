import { describe, expect, it } from 'vitest';
import { retryDelayMs } from './retry-delay';

describe('retryDelayMs', () => {
  const backoff = { firstDelayMs: 1000, maxDelayMs: 10_000 };

  it('waits the first delay after one failure and doubles after each further one, up to the cap', () => {
    expect([1, 2, 3, 4, 5, 100].map((failed) => retryDelayMs(failed, backoff))).toEqual([
      1000, 2000, 4000, 8000, 10_000, 10_000,
    ]);
  });

  it('treats no failure yet as the first', () => {
    expect(retryDelayMs(0, backoff)).toBe(1000);
  });
});
