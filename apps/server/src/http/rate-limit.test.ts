import { type Database, openTestDatabase } from '@concierge/database';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { migrations, SERVER_SCHEMA } from '../db/migrations';
import type { ServerTables } from '../db/schema';
import { AppError } from './errors';
import { enforceRateLimits, isWithinRateLimits, pruneRateLimits, takeRateLimit } from './rate-limit';

let database: Database<ServerTables>;
beforeAll(async () => {
  database = await openTestDatabase<ServerTables>(SERVER_SCHEMA, migrations);
});
afterAll(() => database.close());

describe('isWithinRateLimits', () => {
  it('allows exactly the limit per window, also for parallel hits', async () => {
    const rule = { key: 'test:parallel', limit: 5, windowSeconds: 3600 };
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => isWithinRateLimits(database.db, [rule])),
    );
    expect(answers.filter(Boolean)).toHaveLength(5);
  });

  it('counts keys apart', async () => {
    expect(await isWithinRateLimits(database.db, [{ key: 'test:a', limit: 1, windowSeconds: 60 }])).toBe(
      true,
    );
    expect(await isWithinRateLimits(database.db, [{ key: 'test:b', limit: 1, windowSeconds: 60 }])).toBe(
      true,
    );
    expect(await isWithinRateLimits(database.db, [{ key: 'test:a', limit: 1, windowSeconds: 60 }])).toBe(
      false,
    );
  });

  it('prunes old windows', async () => {
    await database.db
      .insertInto('rate_limits')
      .values({ key: 'test:old', window_start: new Date(Date.now() - 3 * 24 * 3600 * 1000), hits: 9 })
      .execute();
    await pruneRateLimits(database.db);
    const old = await database.db
      .selectFrom('rate_limits')
      .where('key', '=', 'test:old')
      .selectAll()
      .execute();
    expect(old).toEqual([]);
  });
});

describe('the wait after a refusal', () => {
  const at = (iso: string) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(iso));
  };

  it('is the rest of the window, in whole seconds, rounded up', async () => {
    try {
      const rule = { key: 'test:wait', limit: 1, windowSeconds: 15 * 60 };
      at('2030-01-01T10:00:00.000Z');
      expect(await takeRateLimit(database.db, rule)).toEqual({ isWithinLimit: true, retryAfterSeconds: 900 });
      at('2030-01-01T10:05:00.500Z');
      expect(await takeRateLimit(database.db, rule)).toEqual({
        isWithinLimit: false,
        retryAfterSeconds: 600,
      });
      at('2030-01-01T10:14:59.900Z');
      expect(await takeRateLimit(database.db, rule)).toEqual({ isWithinLimit: false, retryAfterSeconds: 1 });
      at('2030-01-01T10:15:00.000Z');
      expect((await takeRateLimit(database.db, rule)).isWithinLimit).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('comes with the 429 of the first rule that refuses; every rule counts the hit', async () => {
    try {
      at('2030-01-01T11:00:30.000Z');
      const perMinute = { key: 'test:enforce:minute', limit: 1, windowSeconds: 60 };
      const perHour = { key: 'test:enforce:hour', limit: 5, windowSeconds: 3600 };
      await enforceRateLimits(database.db, [perMinute, perHour]);
      const refusal = await enforceRateLimits(database.db, [perMinute, perHour]).catch((error) => error);
      expect(refusal).toBeInstanceOf(AppError);
      expect(refusal).toMatchObject({ status: 429, code: 'too_many_requests', retryAfterSeconds: 30 });
      const hour = await database.db
        .selectFrom('rate_limits')
        .select('hits')
        .where('key', '=', perHour.key)
        .executeTakeFirstOrThrow();
      expect(hour.hits).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
