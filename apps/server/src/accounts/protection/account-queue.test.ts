import { randomUUID } from 'node:crypto';
import { type Database, openTestDatabase, sql } from '@concierge/database';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrations, SERVER_SCHEMA } from '../../db/migrations';
import type { ServerTables } from '../../db/schema';
import { holdAccount } from './account-row';
import { readCounter } from './failed-login-counter';
import { recordFailedSignIn } from './sign-in-events';

let database: Database<ServerTables>;
beforeAll(async () => {
  database = await openTestDatabase<ServerTables>(SERVER_SCHEMA, migrations);
});
afterAll(() => database.close());

it('a burst of events for one account waits for its row on one connection, leaving the rest for everyone else', async () => {
  const email = `burst-${randomUUID().slice(0, 8)}@example.ch`;
  let burst: Promise<unknown> | undefined;
  // Another instance holds the account's row meanwhile.
  await database.db.transaction().execute(async (trx) => {
    await holdAccount(trx, email);
    burst = Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        recordFailedSignIn(database.db, {
          key: `burst-${email}-${index}`,
          email,
          tenant: 'demo',
          at: new Date(Date.now() + index),
        }),
      ),
    );
    // The pool has ten connections: were each waiting event to hold one, this would wait for the
    // row above, which is let go only after it — the test would never end.
    const { rows } = await sql<{ answer: number }>`select 1 as answer`.execute(database.db);
    expect(rows).toEqual([{ answer: 1 }]);
  });
  await burst;
  // Every event counted once the row was free.
  expect((await readCounter(database.db, email)).counter).toBe(20);
});
