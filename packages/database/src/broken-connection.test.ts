import { type Migration, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './availability';
import {
  createThrowAwayDatabase,
  type Database,
  databaseLocationFromEnv,
  openDatabase,
} from './open-database';

// A stopped or restarted PostgreSQL ends every connection, also those checked out at that moment.
// Before every client had an error listener of its own, such a connection ended the whole process
// (an 'error' event without a listener): an instance of the cluster did not come back after an
// outage whenever one of its connections was inside a transaction when PostgreSQL stopped.
const migrations: Record<string, Migration> = {};

describe('a connection that breaks while it is checked out', () => {
  let throwAway: { url: string; drop(): Promise<void> };
  let database: Database<Record<string, never>>;
  const connectionErrors: Error[] = [];

  beforeAll(async () => {
    throwAway = await createThrowAwayDatabase(databaseLocationFromEnv().url, 'test');
    database = await openDatabase({
      location: { kind: 'postgres', url: throwAway.url },
      schema: 'broken_connection',
      migrations,
      onConnectionError: (error) => connectionErrors.push(error),
    });
  });
  afterAll(async () => {
    await database?.close();
    await throwAway?.drop();
  });

  it('fails the transaction as "unavailable", is told to the log, and the next query works', async () => {
    const transaction = database.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
      // Another connection ends this one's session while the transaction holds it between statements.
      await sql`select pg_terminate_backend(${rows[0]!.pid})`.execute(database.db);
      const deadline = Date.now() + 10_000;
      while (connectionErrors.length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await sql`select 1`.execute(trx);
    });
    const failure = await transaction.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(connectionErrors.length).toBeGreaterThan(0);
    expect(isDatabaseUnavailable(failure)).toBe(true);
    const { rows } = await sql<{ answer: number }>`select 42 as answer`.execute(database.db);
    expect(rows).toEqual([{ answer: 42 }]);
  });
});
