import { sql } from '@concierge/database';
import type { ProviderConfig } from '../config';
import type { ProviderDb } from '../db/schema';

/** Migration 0008; kept here (not in db/schema.ts) as only this module reads or writes it. */
export interface LoginLimitsTable {
  /** What is counted, e.g. `ip:203.0.113.7`, `request:<uid>`, `alarm:failures`. */
  key: string;
  window_start: Date;
  hits: number;
}

export type LoginLimits = ProviderConfig['loginLimits'];

/** A request id lives an hour (oidc/configuration.ts ttl.Interaction): its count in windows of that. */
export const REQUEST_WINDOW_SECONDS = 3600;
const ALARM_WINDOW_SECONDS = 60;
const ALARM_KEY = 'alarm:failures';
/** Windows older than this are dropped (now and then, see countFailureForAlarm). */
const KEEP_SECONDS = 24 * 3600;

function limitsTable(db: ProviderDb) {
  return db.withTables<{ login_limits: LoginLimitsTable }>();
}

function windowStartOf(windowSeconds: number, now = Date.now()): Date {
  const windowMs = windowSeconds * 1000;
  return new Date(Math.floor(now / windowMs) * windowMs);
}

interface Counter {
  key: string;
  windowStart: Date;
  limit: number;
  kind: 'ip' | 'request';
}

export interface LoginReservation {
  /** Set when the attempt is beyond a limit: answer it without checking the password. */
  refusedBy?: 'ip' | 'request';
  /** Gives the attempt back: the password was right, so it was no failed attempt. */
  release(): Promise<void>;
}

/**
 * Reserves one failed attempt against the client IP's and the request id's limits, before the password
 * is checked, in one atomic upsert (the pattern of the server's http/rate-limit.ts, with the same fixed
 * windows). Parallel attempts therefore cannot all pass a limit they together exceed: at most `limit`
 * passwords are ever checked per key and window. An attempt whose password turns out right gives its
 * reservation back (release), so only failures count. Attempts refused by a limit stay counted.
 */
export async function reserveLoginAttempt(
  db: ProviderDb,
  limits: LoginLimits,
  who: { ip: string; requestId: string },
): Promise<LoginReservation> {
  const counters: Counter[] = [];
  // Always in this order (ip, then request), so two upserts never wait on each other's rows crosswise.
  if (limits.perIp > 0) {
    counters.push({
      key: `ip:${who.ip}`,
      windowStart: windowStartOf(limits.windowSeconds),
      limit: limits.perIp,
      kind: 'ip',
    });
  }
  if (limits.perRequest > 0) {
    counters.push({
      key: `request:${who.requestId}`,
      windowStart: windowStartOf(REQUEST_WINDOW_SECONDS),
      limit: limits.perRequest,
      kind: 'request',
    });
  }
  if (counters.length === 0) return { release: async () => {} };

  const rows = await limitsTable(db)
    .insertInto('login_limits')
    .values(counters.map((counter) => ({ key: counter.key, window_start: counter.windowStart, hits: 1 })))
    .onConflict((conflict) =>
      conflict.columns(['key', 'window_start']).doUpdateSet({ hits: sql<number>`login_limits.hits + 1` }),
    )
    .returning(['key', 'hits'])
    .execute();
  const hitsOf = new Map(rows.map((row) => [row.key, row.hits]));
  const exceeded = counters.find((counter) => (hitsOf.get(counter.key) ?? 0) > counter.limit);
  return {
    refusedBy: exceeded?.kind,
    async release() {
      for (const counter of counters) {
        await limitsTable(db)
          .updateTable('login_limits')
          .set({ hits: sql<number>`greatest(login_limits.hits - 1, 0)` })
          .where('key', '=', counter.key)
          .where('window_start', '=', counter.windowStart)
          .execute();
      }
    },
  };
}

/**
 * Counts one failed sign-in of any account in the current minute. Returns the count when it has just
 * exceeded `alarmPerMinute`: exactly one caller per minute gets it (the upsert is atomic), whichever
 * provider instance it runs on, so the alarm is logged once a minute. The first failure of a minute
 * also drops old windows, so the table stays small without a housekeeping job.
 */
export async function countFailureForAlarm(db: ProviderDb, limits: LoginLimits): Promise<number | undefined> {
  if (limits.alarmPerMinute <= 0) return undefined;
  const row = await limitsTable(db)
    .insertInto('login_limits')
    .values({ key: ALARM_KEY, window_start: windowStartOf(ALARM_WINDOW_SECONDS), hits: 1 })
    .onConflict((conflict) =>
      conflict.columns(['key', 'window_start']).doUpdateSet({ hits: sql<number>`login_limits.hits + 1` }),
    )
    .returning('hits')
    .executeTakeFirstOrThrow();
  if (row.hits === 1) await pruneLoginLimits(db, Math.max(KEEP_SECONDS, limits.windowSeconds * 2));
  return row.hits === limits.alarmPerMinute + 1 ? row.hits : undefined;
}

/**
 * One question of the public user-existence check from this client IP, counted apart from sign-ins
 * but with the same per-IP limit and window: false when beyond it. Every question tells whether an
 * address has an account, so it must not come at hundreds a second (issue "Hardening", oracles).
 */
export async function consumeExistenceQuestion(
  db: ProviderDb,
  limits: LoginLimits,
  ip: string,
): Promise<boolean> {
  if (limits.perIp <= 0) return true;
  const row = await limitsTable(db)
    .insertInto('login_limits')
    .values({ key: `existence:${ip}`, window_start: windowStartOf(limits.windowSeconds), hits: 1 })
    .onConflict((conflict) =>
      conflict.columns(['key', 'window_start']).doUpdateSet({ hits: sql<number>`login_limits.hits + 1` }),
    )
    .returning('hits')
    .executeTakeFirstOrThrow();
  return row.hits <= limits.perIp;
}

export async function pruneLoginLimits(db: ProviderDb, olderThanSeconds = KEEP_SECONDS): Promise<void> {
  await limitsTable(db)
    .deleteFrom('login_limits')
    .where('window_start', '<', new Date(Date.now() - olderThanSeconds * 1000))
    .execute();
}
