import { type Kysely, sql } from '@concierge/database';
import type { ServerTables } from '../../db/schema';
import { LOCK_AFTER_FAILURES } from './account-row';

export interface CounterReading {
  /** What the login page shows: the account's failures, at least LOCK_AFTER_FAILURES while locked. */
  counter: number;
  /** The lock is asked for and the provider does not have it confirmed yet. */
  isLockPending: boolean;
}

const NOTHING: CounterReading = { counter: 0, isLockPending: false };

/**
 * The failed-login counter of spec §7 for several e-mails in one query (the shared wait asks for
 * every waiting page at once). The count is the account's, whichever tenant the failures came
 * through; an e-mail nothing is known of reads 0, exactly like a known one without failures.
 */
export async function readCounters(
  db: Kysely<ServerTables>,
  emails: readonly string[],
): Promise<Map<string, CounterReading>> {
  const readings = new Map<string, CounterReading>();
  if (emails.length === 0) return readings;
  const rows = await db
    .selectFrom('account_protection as account')
    .select([
      'account.email',
      'account.lock_state',
      sql<string>`(select count(*) from account_failures as failure
                   where failure.email = account.email and failure.occurred_at > account.counted_since)`.as(
        'failures',
      ),
    ])
    .where('account.email', 'in', emails)
    .execute();
  for (const row of rows) {
    const failures = Number(row.failures);
    readings.set(row.email, {
      counter: row.lock_state === 'none' ? failures : Math.max(failures, LOCK_AFTER_FAILURES),
      isLockPending: row.lock_state === 'requested',
    });
  }
  for (const email of emails) if (!readings.has(email)) readings.set(email, NOTHING);
  return readings;
}

export async function readCounter(db: Kysely<ServerTables>, email: string): Promise<CounterReading> {
  return (await readCounters(db, [email])).get(email) ?? NOTHING;
}
