import { openTestDatabase, retryDelayMs } from '@concierge/database';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { migrations } from '../db/migrations';
import type { ProviderDatabase, ProviderTables } from '../db/schema';
import { deleteSettledMessages, enqueue } from './outbox';
import { DeliveryError, OutboxRelay } from './outbox-relay';
import { DEFAULT_RETRY_SCHEDULE } from './retry-schedule';

interface Logged {
  level: string;
  fields: Record<string, unknown>;
  message: string;
}

function recordingLogger(lines: Logged[]): FastifyBaseLogger {
  const at = (level: string) => (fields: Record<string, unknown>, message: string) =>
    lines.push({ level, fields, message });
  return { warn: at('warn'), error: at('error'), info: at('info') } as unknown as FastifyBaseLogger;
}

describe('retryDelayMs', () => {
  it('doubles from one second up to five minutes', () => {
    const delays = [1, 2, 3, 4, 9, 10, 30, 1000].map((attempts) =>
      retryDelayMs(attempts, DEFAULT_RETRY_SCHEDULE),
    );
    expect(delays).toEqual([1000, 2000, 4000, 8000, 256_000, 300_000, 300_000, 300_000]);
  });
});

describe('OutboxRelay', () => {
  let database: ProviderDatabase;
  beforeAll(async () => {
    database = await openTestDatabase<ProviderTables>('provider', migrations);
  });
  afterAll(() => database.close());

  async function write(id: string, payload: object, createdAt = new Date()) {
    await database.db.transaction().execute((trx) => enqueue(trx, 'webhook_outbox', [{ id, payload }]));
    await database.db
      .updateTable('webhook_outbox')
      .set({ created_at: createdAt })
      .where('id', '=', id)
      .execute();
  }

  const rowOf = (id: string) =>
    database.db.selectFrom('webhook_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('delivers in order, and leaves freshly written rows to their writer', async () => {
    const sent: unknown[] = [];
    const relay = new OutboxRelay<{ n: number }>({
      db: database.db,
      table: 'webhook_outbox',
      send: async (payload) => {
        sent.push(payload.n);
      },
      log: recordingLogger([]),
    });
    await write('order-1', { n: 1 });
    await write('order-2', { n: 2 });
    // Claimed by the writer: a background pass does not touch them.
    expect(await relay.runDuePass()).toBe(0);
    await relay.deliver(['order-1', 'order-2']);
    expect(sent).toEqual([1, 2]);
    expect(await rowOf('order-2')).toMatchObject({ attempts: 1, last_error: null });
    expect((await rowOf('order-2')).delivered_at).toBeInstanceOf(Date);
    // Delivered rows are not sent again.
    await relay.deliver(['order-1']);
    expect(sent).toEqual([1, 2]);
  });

  it('schedules a retry with backoff and logs only safe fields', async () => {
    const lines: Logged[] = [];
    const relay = new OutboxRelay<{ email: string }>({
      db: database.db,
      table: 'webhook_outbox',
      send: async () => {
        throw new DeliveryError('webhook answered HTTP 503');
      },
      log: recordingLogger(lines),
      describe: () => ({ eventtype: 'LOGIN_FAILURE' }),
    });
    await write('retry-1', { email: 'secret@example.com' });
    const before = Date.now();
    await relay.deliver(['retry-1']);
    const row = await rowOf('retry-1');
    expect(row).toMatchObject({ attempts: 1, last_error: 'webhook answered HTTP 503', given_up_at: null });
    expect(row.next_attempt_at.getTime()).toBeGreaterThanOrEqual(before + 1000 - 50);
    expect(row.next_attempt_at.getTime()).toBeLessThan(Date.now() + 1000 + 50);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.fields).toMatchObject({
      eventtype: 'LOGIN_FAILURE',
      reason: 'webhook answered HTTP 503',
    });
    expect(JSON.stringify(lines)).not.toContain('secret@example.com');
  });

  it('picks due rows up in the background and gives up after the window, erasing when asked', async () => {
    const lines: Logged[] = [];
    let isUp = false;
    const relay = new OutboxRelay<{ n: number }>({
      db: database.db,
      table: 'webhook_outbox',
      send: async () => {
        if (!isUp)
          throw Object.assign(new Error('connect failed to somewhere@example.com'), { code: 'ECONNREFUSED' });
      },
      log: recordingLogger(lines),
      isPayloadErasedWhenSettled: true,
      schedule: { firstDelayMs: 10, maxDelayMs: 20, giveUpAfterMs: 60 * 60 * 1000 },
    });
    await write('old', { n: 1 }, new Date(Date.now() - 2 * 60 * 60 * 1000));
    await write('young', { n: 2 });
    const due = new Date(Date.now() - 1);
    await database.db
      .updateTable('webhook_outbox')
      .set({ next_attempt_at: due })
      .where('id', 'in', ['old', 'young'])
      .execute();

    expect(await relay.runDuePass()).toBe(2);
    expect(await rowOf('old')).toMatchObject({ attempts: 1, last_error: 'ECONNREFUSED', payload: {} });
    expect((await rowOf('old')).given_up_at).toBeInstanceOf(Date);
    expect(lines.find((line) => line.level === 'error')?.message).toMatch(/giving up/);
    expect(JSON.stringify(lines)).not.toContain('somewhere@example.com');
    expect(await rowOf('young')).toMatchObject({ attempts: 1, given_up_at: null, payload: { n: 2 } });

    isUp = true;
    // Once its backoff has run out, a pass retries the young row and leaves the given-up one alone.
    const { next_attempt_at: retryAt } = await rowOf('young');
    await vi.waitUntil(() => Date.now() >= retryAt.getTime(), { timeout: 5000, interval: 5 });
    expect(await relay.runDuePass()).toBe(1);
    expect(await rowOf('young')).toMatchObject({ attempts: 2, last_error: null, payload: {} });
    await relay.stop();
  });

  it('deletes settled messages after a week and keeps pending ones', async () => {
    const weekAndADayAgo = new Date(Date.now() - 8 * 24 * 60 * 60 * 1000);
    await write('settled-old', { n: 1 }, weekAndADayAgo);
    await write('pending-old', { n: 2 }, weekAndADayAgo);
    await database.db
      .updateTable('webhook_outbox')
      .set({ delivered_at: weekAndADayAgo })
      .where('id', '=', 'settled-old')
      .execute();
    await deleteSettledMessages(database.db, 'webhook_outbox');
    const ids = (await database.db.selectFrom('webhook_outbox').select('id').execute()).map((row) => row.id);
    expect(ids).not.toContain('settled-old');
    expect(ids).toContain('pending-old');
    expect(ids).toContain('order-1');
  });
});
