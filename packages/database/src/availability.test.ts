import { freePort } from '@concierge/test-support';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './availability';
import { databaseLocationFromEnv, openTestDatabase } from './open-database';
import { provokeUniqueViolation } from './test-errors';

async function failureOf(action: () => Promise<unknown>): Promise<unknown> {
  try {
    await action();
  } catch (error) {
    return error;
  }
  throw new Error('it did not fail');
}

describe('isDatabaseUnavailable', () => {
  it('is true when no PostgreSQL listens (a query through the pool)', async () => {
    // A port the OS just handed out and took back: nothing listens there.
    const pool = new pg.Pool({ host: '127.0.0.1', port: await freePort(), connectionTimeoutMillis: 2000 });
    try {
      expect(isDatabaseUnavailable(await failureOf(() => pool.query('select 1')))).toBe(true);
    } finally {
      await pool.end();
    }
  });

  it('is true when the server ends the connection under a session (57P01, as on a restart)', async () => {
    const client = new pg.Client({ connectionString: databaseLocationFromEnv().url });
    // The server's FATAL also arrives as the client's error event; the query's rejection is the one we look at.
    client.on('error', () => undefined);
    await client.connect();
    try {
      const error = await failureOf(() => client.query('select pg_terminate_backend(pg_backend_pid())'));
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      await client.end().catch(() => undefined);
    }
  });

  it('is false for what the database says about the query, and for other errors', async () => {
    expect(isDatabaseUnavailable(await provokeUniqueViolation('anna@example.ch'))).toBe(false);
    const database = await openTestDatabase<unknown>('unavailable', {});
    try {
      const syntax = await failureOf(() => sql`selec 1`.execute(database.db));
      expect(isDatabaseUnavailable(syntax)).toBe(false);
    } finally {
      await database.close();
    }
    // The provider client's failures carry the socket error as their cause only.
    const fetchFailure = new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });
    expect(isDatabaseUnavailable(fetchFailure)).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
  });
});
