import { type Database, openTestDatabase } from '@concierge/database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations, SERVER_SCHEMA } from '../db/migrations';
import type { ServerTables } from '../db/schema';
import { consumeRateLimit, pruneRateLimits } from './rate-limit';

let database: Database<ServerTables>;
beforeAll(async () => {
  database = await openTestDatabase<ServerTables>(SERVER_SCHEMA, migrations);
});
afterAll(() => database.close());

describe('consumeRateLimit', () => {
  it('allows exactly the limit per window, also for parallel hits', async () => {
    const rule = { key: 'test:parallel', limit: 5, windowSeconds: 3600 };
    const answers = await Promise.all(Array.from({ length: 12 }, () => consumeRateLimit(database.db, rule)));
    expect(answers.filter(Boolean)).toHaveLength(5);
  });

  it('counts keys apart', async () => {
    expect(await consumeRateLimit(database.db, { key: 'test:a', limit: 1, windowSeconds: 60 })).toBe(true);
    expect(await consumeRateLimit(database.db, { key: 'test:b', limit: 1, windowSeconds: 60 })).toBe(true);
    expect(await consumeRateLimit(database.db, { key: 'test:a', limit: 1, windowSeconds: 60 })).toBe(false);
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
