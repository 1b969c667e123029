import { type Kysely, sql } from '@concierge/database';
import type { ServerTables } from '../../db/schema';
import { LOCK_AFTER_FAILURES } from './account-row';

/**
 * Housekeeping: of each account's failures, only the newest LOCK_AFTER_FAILURES are kept. An account
 * that goes on being tried once it is locked (or asked to be) adds a row per attempt for ever;
 * what counts never needs more: for any `counted_since`, the failures after it among the newest
 * three number min(all failures after it, 3), and the counter, the lock and the page read nothing
 * above three (spec §4: thresholds 1, 2, 3 or more; migration 0400 kept `least(counter, 3)` too).
 * Failures that no longer count at all go with pruneAccountProtection.
 */
export async function pruneSurplusFailures(db: Kysely<ServerTables>): Promise<void> {
  const ranked = db
    .selectFrom('account_failures')
    .select([
      'event_key',
      sql<number>`row_number() over (partition by email order by occurred_at desc, event_key desc)`.as(
        'newer_rank',
      ),
    ])
    .as('ranked');
  await db
    .deleteFrom('account_failures')
    .where(
      'event_key',
      'in',
      db.selectFrom(ranked).select('ranked.event_key').where('ranked.newer_rank', '>', LOCK_AFTER_FAILURES),
    )
    .execute();
}
