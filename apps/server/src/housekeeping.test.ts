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
const SETTINGS = { sentMailRetentionDays: 7, auditRetentionDays: 400 };

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
  await database.db
    .insertInto('sign_in_requests')
    .values([
      { request_id: 'request-old', tenant: 'demo', created_at: daysAgo(2) },
      { request_id: 'request-new', tenant: 'demo', created_at: new Date() },
    ])
    .execute();
  const mail = (id: string, created: Date, sent: Date | null, next: Date | null) => ({
    id,
    kind: 'activation',
    recipient: 'a@example.ch',
    subject: 'Activate',
    html: '',
    text: '',
    created_at: created,
    sent_at: sent,
    next_attempt_at: next,
  });
  await database.db
    .insertInto('mail_outbox')
    .values([
      mail('00000000-0000-4000-8000-000000000001', daysAgo(9), daysAgo(8), null), // sent-old
      mail('00000000-0000-4000-8000-000000000002', daysAgo(6), daysAgo(6), null), // sent-new
      mail('00000000-0000-4000-8000-000000000003', daysAgo(31), null, null), // undeliverable-old
      mail('00000000-0000-4000-8000-000000000004', daysAgo(29), null, null), // undeliverable-new
      mail('00000000-0000-4000-8000-000000000005', daysAgo(40), null, daysAgo(40)), // still due
    ])
    .execute();
  const activation = (id: string, expires: Date, used: Date | null, voided: Date | null) => ({
    id,
    verification_hash: `hash-${id}`,
    email: 'a@example.ch',
    sub: 'sub-a',
    tenant: 'demo',
    language: 'de',
    created_at: new Date(expires.getTime() - 3 * 24 * 3600 * 1000),
    expires_at: expires,
    used_at: used,
    voided_at: voided,
  });
  await database.db
    .insertInto('activations')
    .values([
      activation('00000000-0000-4000-8000-00000000000a', daysAgo(31), daysAgo(33), null), // used-old
      activation('00000000-0000-4000-8000-00000000000b', daysAgo(31), null, daysAgo(32)), // voided-old
      activation('00000000-0000-4000-8000-00000000000c', daysAgo(31), null, null), // expired-old
      activation('00000000-0000-4000-8000-00000000000d', daysAgo(29), daysAgo(30), null), // used-new
      activation('00000000-0000-4000-8000-00000000000e', daysAgo(-2), null, null), // open
    ])
    .execute();
  // An account tried six times after its last clear: the newest three are all that ever counts.
  await database.db
    .insertInto('account_protection')
    .values({
      email: 'tried@example.ch',
      sub: null,
      counted_since: new Date(0),
      lock_state: 'locked',
      lock_requested_at: daysAgo(6),
      locked_at: daysAgo(6),
      lock_is_ours: true,
      lock_attempt_unknown: false,
    })
    .execute();
  // Accounts with nothing left: cleared long ago (gone), cleared lately (a late event may still come).
  const cleared = (email: string, since: Date) => ({
    email,
    sub: null,
    counted_since: since,
    lock_state: 'none' as const,
    lock_requested_at: null,
    locked_at: null,
    lock_is_ours: false,
    lock_attempt_unknown: false,
  });
  await database.db
    .insertInto('account_protection')
    .values([cleared('cleared-old@example.ch', daysAgo(31)), cleared('cleared-new@example.ch', daysAgo(29))])
    .execute();
  await database.db
    .insertInto('account_failures')
    .values(
      [6, 5, 4, 3, 2, 1].map((days) => ({
        event_key: `failure-${days}`,
        email: 'tried@example.ch',
        tenant: 'demo',
        occurred_at: daysAgo(days),
      })),
    )
    .execute();
  const change = (requestId: string, at: Date) => ({
    at,
    token_fingerprint: '1a2b3c4d',
    request_id: requestId,
    action: 'code.revoke' as const,
    tenant: 'demo',
    target: '3f0e4a53-4a8e-4d2b-9c7e-0d1c2b3a4f5e',
    amount: null,
    outcome: 'changed' as const,
  });
  await database.db
    .insertInto('admin_audit')
    .values([change('audit-old', daysAgo(401)), change('audit-new', daysAgo(399))])
    .execute();
}

async function remaining() {
  const [limits, events, resets, requests, mails, activations, failures, accounts, audit] = await Promise.all(
    [
      database.db.selectFrom('rate_limits').select('key').where('key', 'like', 'housekeeping:%').execute(),
      database.db.selectFrom('processed_webhook_events').select('id').execute(),
      database.db.selectFrom('password_reset_requests').select('rprq_hash').execute(),
      database.db.selectFrom('sign_in_requests').select('request_id').execute(),
      database.db.selectFrom('mail_outbox').select('id').orderBy('id').execute(),
      database.db.selectFrom('activations').select('id').orderBy('id').execute(),
      database.db.selectFrom('account_failures').select('event_key').orderBy('event_key').execute(),
      database.db.selectFrom('account_protection').select('email').orderBy('email').execute(),
      database.db.selectFrom('admin_audit').select('request_id').execute(),
    ],
  );
  return {
    limits: limits.map((row) => row.key),
    events: events.map((row) => row.id),
    resets: resets.map((row) => row.rprq_hash),
    requests: requests.map((row) => row.request_id),
    mails: mails.map((row) => row.id.slice(-1)),
    activations: activations.map((row) => row.id.slice(-1)),
    failures: failures.map((row) => row.event_key),
    accounts: accounts.map((row) => row.email),
    audit: audit.map((row) => row.request_id),
  };
}

describe('housekeeping', () => {
  it('drops from every table that grows with traffic what is past its retention, and keeps the rest', async () => {
    await seed();
    await runHousekeeping(database.db, SETTINGS);
    expect(await remaining()).toEqual({
      limits: ['housekeeping:new'],
      events: ['event-new'],
      resets: ['reset-new'],
      requests: ['request-new'],
      // sent a week ago, given up on a month ago: gone; a row still due stays however old.
      mails: ['2', '4', '5'],
      // expired a month ago, used, voided or not: gone.
      activations: ['d', 'e'],
      failures: ['failure-1', 'failure-2', 'failure-3'],
      accounts: ['cleared-new@example.ch', 'tried@example.ch'],
      // AUDIT_RETENTION_DAYS, 400 here.
      audit: ['audit-new'],
    });
  });

  it('keeps sent e-mails as long as SENT_MAIL_RETENTION_DAYS says, and never one not sent yet', async () => {
    await database.db.deleteFrom('mail_outbox').execute();
    const sentAgo = (id: string, days: number | null) => ({
      id: `00000000-0000-4000-8000-00000000010${id}`,
      kind: 'activation',
      recipient: 'b@example.ch',
      subject: 'Activate',
      html: '',
      text: '',
      created_at: daysAgo(days ?? 3),
      sent_at: days === null ? null : daysAgo(days),
      next_attempt_at: days === null ? daysAgo(3) : null,
    });
    await database.db
      .insertInto('mail_outbox')
      .values([sentAgo('1', 3), sentAgo('2', 1.5), sentAgo('3', 0.5), sentAgo('4', null)])
      .execute();
    const kept = async () => (await remaining()).mails;
    await runHousekeeping(database.db, SETTINGS);
    expect(await kept()).toEqual(['1', '2', '3', '4']);
    await runHousekeeping(database.db, { ...SETTINGS, sentMailRetentionDays: 2 });
    expect(await kept()).toEqual(['2', '3', '4']);
    // 0: gone at the next run once sent; one still due stays.
    await runHousekeeping(database.db, { ...SETTINGS, sentMailRetentionDays: 0 });
    expect(await kept()).toEqual(['4']);
  });

  it('runs at once when started and stops cleanly', async () => {
    await database.db
      .insertInto('processed_webhook_events')
      .values({ id: 'event-older', received_at: daysAgo(40) })
      .execute();
    // A logger like the server's, its lines kept: a failed run is only logged.
    const lines: string[] = [];
    const { log } = Fastify({ logger: { level: 'warn', stream: { write: (line) => lines.push(line) } } });
    const stop = startHousekeeping(database.db, log, SETTINGS, 60_000);
    await stop();
    expect((await remaining()).events).toEqual(['event-new']);
    expect(lines).toEqual([]);
  });
});
