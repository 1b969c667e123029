import { type Kysely, sql } from '@concierge/database';
import type { ServerTables } from '../db/schema';

export interface RateLimitRule {
  /** What is limited and for whom, e.g. `counter:email:anna@example.ch`. */
  key: string;
  limit: number;
  windowSeconds: number;
}

/**
 * Counts one hit against a fixed window in the database, so that every server instance sees the same
 * count (ARCHITECTURE §2), and says whether the hit is still within the limit. One atomic upsert.
 */
export async function consumeRateLimit(db: Kysely<ServerTables>, rule: RateLimitRule): Promise<boolean> {
  const windowMs = rule.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(Date.now() / windowMs) * windowMs);
  const row = await db
    .insertInto('rate_limits')
    .values({ key: rule.key, window_start: windowStart, hits: 1 })
    .onConflict((conflict) =>
      conflict.columns(['key', 'window_start']).doUpdateSet({ hits: sql`rate_limits.hits + 1` }),
    )
    .returning('hits')
    .executeTakeFirstOrThrow();
  return row.hits <= rule.limit;
}

/** Drops windows that ended long ago; called now and then by the server's housekeeping. */
export async function pruneRateLimits(db: Kysely<ServerTables>, olderThanSeconds = 24 * 3600): Promise<void> {
  await db
    .deleteFrom('rate_limits')
    .where('window_start', '<', new Date(Date.now() - olderThanSeconds * 1000))
    .execute();
}
