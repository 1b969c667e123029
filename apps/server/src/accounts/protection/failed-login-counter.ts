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
    .select(['account.email', 'account.lock_state', failuresOf(sql.ref('account.email')).as('failures')])
    .where('account.email', 'in', emails)
    .execute();
  for (const row of rows) readings.set(row.email, readingOf(row));
  for (const email of emails) if (!readings.has(email)) readings.set(email, NOTHING);
  return readings;
}

/** The account's failures since its count was last cleared, for the account row of `email`. */
function failuresOf(email: ReturnType<typeof sql.ref>) {
  return sql<string>`(select count(*) from account_failures as failure, account_protection as counted
    where counted.email = ${email} and failure.email = counted.email
      and failure.occurred_at > counted.counted_since)`;
}

/** What the login page shows of an account row: at least LOCK_AFTER_FAILURES while it is locked. */
export function readingOf(row: CounterRow): CounterReading {
  if (row.lock_state === null) return NOTHING;
  const failures = Number(row.failures);
  return {
    counter: row.lock_state === 'none' ? failures : Math.max(failures, LOCK_AFTER_FAILURES),
    isLockPending: row.lock_state === 'requested',
  };
}

/** What readingOf makes a reading of. */
export interface CounterRow {
  lock_state: string | null;
  failures: string | null;
}

/**
 * The columns that read one e-mail's counter (a CounterRow), for a statement that reads it beside
 * something else in the same round trip: the login page's question also counts against the rate
 * limits (routes/failed-login-counter.ts), one statement for both.
 */
export function counterColumnsOf(email: string) {
  return sql<CounterRow>`(select lock_state from account_protection where email = ${email}) as lock_state,
    ${failuresOf(sql.val(email))} as failures`;
}

export async function readCounter(db: Kysely<ServerTables>, email: string): Promise<CounterReading> {
  return (await readCounters(db, [email])).get(email) ?? NOTHING;
}
