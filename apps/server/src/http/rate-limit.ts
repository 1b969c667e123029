import { type Kysely, sql } from '@concierge/database';
import type { ServerTables } from '../db/schema';
import { tooManyRequests } from './errors';

export interface RateLimitRule {
  /** What is limited and for whom, e.g. `counter:email:anna@example.ch`. */
  key: string;
  limit: number;
  windowSeconds: number;
}

export interface RateLimitOutcome {
  /** Whether the hit is still within the limit. */
  isWithinLimit: boolean;
  /** Seconds until the window ends and the rule counts afresh: how long a refused client waits. */
  retryAfterSeconds: number;
}

/**
 * Counts one hit against a fixed window in the database, so that every server instance sees the same
 * count (ARCHITECTURE §2), and says whether the hit is still within the limit and when the window
 * ends. One atomic upsert.
 */
export async function takeRateLimit(
  db: Kysely<ServerTables>,
  rule: RateLimitRule,
): Promise<RateLimitOutcome> {
  const now = Date.now();
  const windowMs = rule.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now / windowMs) * windowMs);
  const row = await db
    .insertInto('rate_limits')
    .values({ key: rule.key, window_start: windowStart, hits: 1 })
    .onConflict((conflict) =>
      conflict.columns(['key', 'window_start']).doUpdateSet({ hits: sql`rate_limits.hits + 1` }),
    )
    .returning('hits')
    .executeTakeFirstOrThrow();
  return {
    isWithinLimit: row.hits <= rule.limit,
    retryAfterSeconds: Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now) / 1000)),
  };
}

/**
 * Counts one hit against each rule in turn and says whether all were within their limits: for
 * callers that answer a refusal like anything else (resend, reset initiate: nothing may tell whether
 * an account exists). The rules after a refusing one are not counted. A caller that refuses with 429
 * uses enforceRateLimits, which says how long to wait.
 */
export async function isWithinRateLimits(
  db: Kysely<ServerTables>,
  rules: readonly RateLimitRule[],
): Promise<boolean> {
  for (const rule of rules) {
    if (!(await takeRateLimit(db, rule)).isWithinLimit) return false;
  }
  return true;
}

/**
 * Counts one hit against each rule in turn and, at the first that refuses, throws 429
 * `too_many_requests` whose `Retry-After` is that rule's wait (the error handler answers it). The
 * rules after a refusing one are not counted.
 */
export async function enforceRateLimits(
  db: Kysely<ServerTables>,
  rules: readonly RateLimitRule[],
  message?: string,
): Promise<void> {
  for (const rule of rules) {
    const outcome = await takeRateLimit(db, rule);
    if (!outcome.isWithinLimit) throw tooManyRequests(outcome.retryAfterSeconds, message);
  }
}

export interface QuotaOutcome {
  /** Whether `amount` was taken; when not, nothing was counted. */
  isGranted: boolean;
  /** What the window has used, this amount included when granted. */
  used: number;
  /** When the window ends and the quota is whole again. */
  renewsAt: Date;
}

/**
 * Takes `amount` from a quota (a limit per fixed window, in the rate-limit table, shared by every
 * instance): all of it, or — when it would pass the limit — none, so that a refused request does not
 * use up what a smaller one could still have. One atomic upsert.
 */
export async function consumeQuota(
  db: Kysely<ServerTables>,
  rule: RateLimitRule,
  amount: number,
): Promise<QuotaOutcome> {
  const windowMs = rule.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(Date.now() / windowMs) * windowMs);
  const renewsAt = new Date(windowStart.getTime() + windowMs);
  if (amount <= rule.limit) {
    const row = await db
      .insertInto('rate_limits')
      .values({ key: rule.key, window_start: windowStart, hits: amount })
      .onConflict((conflict) =>
        conflict
          .columns(['key', 'window_start'])
          .doUpdateSet({ hits: sql`rate_limits.hits + ${amount}` })
          .where(sql<boolean>`rate_limits.hits + ${amount} <= ${rule.limit}`),
      )
      .returning('hits')
      .executeTakeFirst();
    if (row) return { isGranted: true, used: row.hits, renewsAt };
  }
  const current = await db
    .selectFrom('rate_limits')
    .select('hits')
    .where('key', '=', rule.key)
    .where('window_start', '=', windowStart)
    .executeTakeFirst();
  return { isGranted: false, used: current?.hits ?? 0, renewsAt };
}

/** Drops windows that ended long ago; called now and then by the server's housekeeping. */
export async function pruneRateLimits(db: Kysely<ServerTables>, olderThanSeconds = 24 * 3600): Promise<void> {
  await db
    .deleteFrom('rate_limits')
    .where('window_start', '<', new Date(Date.now() - olderThanSeconds * 1000))
    .execute();
}
