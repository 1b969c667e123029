import { retryDelayMs } from '@concierge/database';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY } from './retry-policy';

describe('retryDelayMs', () => {
  it('starts at 5 s, doubles, and stops growing at 1 h', () => {
    const delays = [1, 2, 3, 4, 10, 11, 20].map((attempt) => retryDelayMs(attempt, DEFAULT_RETRY_POLICY));
    expect(delays).toEqual([5000, 10_000, 20_000, 40_000, 2_560_000, 3_600_000, 3_600_000]);
  });
});
