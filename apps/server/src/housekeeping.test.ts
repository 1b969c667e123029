import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHousekeeping, startHousekeeping } from './housekeeping';
import { startTestServer } from './test-support/test-server';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 3600 * 1000);

async function seed() {
  await server.db
    .insertInto('rate_limits')
    .values([
      { key: 'housekeeping:old', window_start: daysAgo(2), hits: 1 },
      { key: 'housekeeping:new', window_start: new Date(), hits: 1 },
    ])
    .execute();
  await server.db
    .insertInto('processed_webhook_events')
    .values([
      { id: 'event-old', received_at: daysAgo(31) },
      { id: 'event-new', received_at: daysAgo(29) },
    ])
    .execute();
  await server.db
    .insertInto('password_reset_requests')
    .values([
      { rprq_hash: 'reset-old', email: 'a@example.ch', created_at: daysAgo(8) },
      { rprq_hash: 'reset-new', email: 'a@example.ch', created_at: daysAgo(1) },
    ])
    .execute();
}

async function remaining() {
  const [limits, events, resets] = await Promise.all([
    server.db.selectFrom('rate_limits').select('key').where('key', 'like', 'housekeeping:%').execute(),
    server.db.selectFrom('processed_webhook_events').select('id').execute(),
    server.db.selectFrom('password_reset_requests').select('rprq_hash').execute(),
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
    await runHousekeeping(server.db);
    expect(await remaining()).toEqual({
      limits: ['housekeeping:new'],
      events: ['event-new'],
      resets: ['reset-new'],
    });
  });

  it('runs at once when started and stops cleanly', async () => {
    await server.db
      .insertInto('processed_webhook_events')
      .values({ id: 'event-older', received_at: daysAgo(40) })
      .execute();
    const stop = startHousekeeping(server.db, server.app.log, 60_000);
    await stop();
    expect((await remaining()).events).toEqual(['event-new']);
  });
});
