import { type Database, openTestDatabase } from '@concierge/database';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations, SERVER_SCHEMA } from './db/migrations';
import type { ServerTables } from './db/schema';
import { runHousekeeping, startHousekeeping } from './housekeeping';

// Deletes on the server's tables: its database alone, no server.
let database: Database<ServerTables>;
beforeAll(async () => {
  database = await openTestDatabase<ServerTables>(SERVER_SCHEMA, migrations);
});
afterAll(() => database?.close());

const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 3600 * 1000);

async function seed() {
  await database.db
    .insertInto('rate_limits')
    .values([
      { key: 'housekeeping:old', window_start: daysAgo(2), hits: 1 },
      { key: 'housekeeping:new', window_start: new Date(), hits: 1 },
    ])
    .execute();
  await database.db
    .insertInto('processed_webhook_events')
    .values([
      { id: 'event-old', received_at: daysAgo(31) },
      { id: 'event-new', received_at: daysAgo(29) },
    ])
    .execute();
  await database.db
    .insertInto('password_reset_requests')
    .values([
      { rprq_hash: 'reset-old', email: 'a@example.ch', created_at: daysAgo(8) },
      { rprq_hash: 'reset-new', email: 'a@example.ch', created_at: daysAgo(1) },
    ])
    .execute();
}

async function remaining() {
  const [limits, events, resets] = await Promise.all([
    database.db.selectFrom('rate_limits').select('key').where('key', 'like', 'housekeeping:%').execute(),
    database.db.selectFrom('processed_webhook_events').select('id').execute(),
    database.db.selectFrom('password_reset_requests').select('rprq_hash').execute(),
  ]);
  return {
    limits: limits.map((row) => row.key),
    events: events.map((row) => row.id),
    resets: resets.map((row) => row.rprq_hash),
  };
}

describe('housekeeping', () => {
  it('drops old rate-limit windows, event ids and reset requests, and keeps recent ones', async () => {
    await seed();
    await runHousekeeping(database.db);
    expect(await remaining()).toEqual({
      limits: ['housekeeping:new'],
      events: ['event-new'],
      resets: ['reset-new'],
    });
  });

  it('runs at once when started and stops cleanly', async () => {
    await database.db
      .insertInto('processed_webhook_events')
      .values({ id: 'event-older', received_at: daysAgo(40) })
      .execute();
    // A logger like the server's, its lines kept: a failed run is only logged.
    const lines: string[] = [];
    const { log } = Fastify({ logger: { level: 'warn', stream: { write: (line) => lines.push(line) } } });
    const stop = startHousekeeping(database.db, log, 60_000);
    await stop();
    expect((await remaining()).events).toEqual(['event-new']);
    expect(lines).toEqual([]);
  });
});
