import { type Kysely, prepared, sql } from '@concierge/database';
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
  const [count] = await runHits(db, [rule], now);
  return { isWithinLimit: count!.hits <= rule.limit, retryAfterSeconds: secondsLeftIn(rule, now) };
}

/** The count of a rule's window after a hit, as the hit's statement returns it. */
export interface RuleCount {
  key: string;
  hits: number;
}

function windowStartOf(rule: RateLimitRule, now: number): Date {
  const windowMs = rule.windowSeconds * 1000;
  return new Date(Math.floor(now / windowMs) * windowMs);
}

/** Seconds until the rule's window ends and it counts afresh, rounded up, at least 1. */
function secondsLeftIn(rule: RateLimitRule, now: number): number {
  const endsAt = windowStartOf(rule, now).getTime() + rule.windowSeconds * 1000;
  return Math.max(1, Math.ceil((endsAt - now) / 1000));
}

/**
 * The one statement that counts a hit against every rule at once (an upsert of one row per rule),
 * returning each rule's count: run as it is (countHit), or as a common table expression beside a
 * caller's own read, so that a request pays one round trip (the failed-login counter). Written out
 * rather than built: it runs before most answers, and Kysely's builder and compiler took about 60 µs
 * of CPU per request for it (docs/decisions.md, "Server CPU per arrival").
 */
export function hitStatement(rules: readonly RateLimitRule[], now: number) {
  const rows = rules.map((rule) => sql`(${rule.key}, ${windowStartOf(rule, now)}, 1)`);
  return sql<RuleCount>`insert into rate_limits (key, window_start, hits) values ${sql.join(rows)}
    on conflict (key, window_start) do update set hits = rate_limits.hits + 1
    returning key, hits`;
}

/** Runs the hit's statement alone, prepared: most posts count one before anything else. */
async function runHits(db: Kysely<ServerTables>, rules: readonly RateLimitRule[], now: number) {
  return (await db.executeQuery(prepared(hitStatement(rules, now).compile(db)))).rows;
}

/**
 * How long to wait, in whole seconds, by the first rule (in the rules' order) whose count is past
 * its limit: the rest of its window; undefined when every rule is within its limit.
 */
export function waitOf(
  rules: readonly RateLimitRule[],
  counts: readonly RuleCount[],
  now: number,
): number | undefined {
  for (const rule of rules) {
    const count = counts.find((candidate) => candidate.key === rule.key);
    if (count && count.hits > rule.limit) return secondsLeftIn(rule, now);
  }
  return undefined;
}

/**
 * Counts one hit against every rule, in one statement, and says how long to wait when one of them
 * refuses (undefined: all within). Every rule counts the hit, also those after a refusing one: a
 * client past its address's limit still uses up the e-mail's, as it would from another address.
 */
export async function countHit(
  db: Kysely<ServerTables>,
  rules: readonly RateLimitRule[],
): Promise<number | undefined> {
  if (rules.length === 0) return undefined;
  const now = Date.now();
  return waitOf(rules, await runHits(db, rules, now), now);
}

/**
 * Whether a hit is within every rule: for callers that answer a refusal like anything else (resend,
 * reset initiate: nothing may tell whether an account exists). A caller that refuses with 429 uses
 * enforceRateLimits, which says how long to wait.
 */
export async function isWithinRateLimits(
  db: Kysely<ServerTables>,
  rules: readonly RateLimitRule[],
): Promise<boolean> {
  return (await countHit(db, rules)) === undefined;
}

/**
 * Counts one hit against every rule and, when one refuses, throws 429 `too_many_requests` whose
 * `Retry-After` is the first refusing rule's wait (the error handler answers it).
 */
export async function enforceRateLimits(
  db: Kysely<ServerTables>,
  rules: readonly RateLimitRule[],
  message?: string,
): Promise<void> {
  const wait = await countHit(db, rules);
  if (wait !== undefined) throw tooManyRequests(wait, message);
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
