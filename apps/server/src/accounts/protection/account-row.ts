import { FAILED_LOGINS_BEFORE_LOCK } from '@concierge/contracts';
import { type Kysely, sql } from '@concierge/database';
import type { AccountProtectionTable, ServerTables } from '../../db/schema';

/** spec §4, §9: the third failed sign-in locks the account; the counter says at least this then. */
export const LOCK_AFTER_FAILURES = FAILED_LOGINS_BEFORE_LOCK;

/** Before any event: every failure counts. */
const BEGINNING = new Date(0);

export type AccountRow = AccountProtectionTable;

/** The later of a time on record (or none) and an event's: events may come out of order. */
export function laterOf(recorded: Date | null, at: Date): Date {
  return recorded && recorded > at ? recorded : at;
}

/**
 * The account's row, created if it has none, and held (`for update`) until the caller's transaction
 * ends. Every change of one account's count or lock goes through it, so two instances, two parallel
 * events or an event and the background job see each other's change, never a state in between.
 */
export async function holdAccount(trx: Kysely<ServerTables>, email: string): Promise<AccountRow> {
  await trx
    .insertInto('account_protection')
    .values({
      email,
      sub: null,
      counted_since: BEGINNING,
      lock_state: 'none',
      lock_requested_at: null,
      locked_at: null,
      lock_is_ours: false,
      lock_attempt_unknown: false,
      seen_active_at: null,
    })
    .onConflict((conflict) => conflict.column('email').doNothing())
    .execute();
  return trx
    .selectFrom('account_protection')
    .selectAll()
    .where('email', '=', email)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

/** Failures after the last success, activation or reset. */
export async function failuresSince(
  trx: Kysely<ServerTables>,
  email: string,
  countedSince: Date,
): Promise<number> {
  const row = await trx
    .selectFrom('account_failures')
    .select(sql<string>`count(*)`.as('count'))
    .where('email', '=', email)
    .where('occurred_at', '>', countedSince)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Marks an event key as processed, in the transaction of the change it makes: a redelivery (also a
 * parallel one, which waits on the key's unique index until the first commits) finds it and changes
 * nothing. False when it was processed already.
 */
export async function claimEventKey(trx: Kysely<ServerTables>, key: string): Promise<boolean> {
  const claimed = await trx
    .insertInto('processed_webhook_events')
    .values({ id: key, received_at: new Date() })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return claimed !== undefined;
}

/** How long an event key is remembered; the provider gives up retrying long before (~16 min). */
export const PROCESSED_EVENT_RETENTION_DAYS = 30;

/**
 * Housekeeping: old event keys; failures that no longer count (before their account's last clear);
 * and accounts left with nothing (no lock, no failure that counts) whose last clear is older than the
 * event keys kept — a late event can no longer arrive for them, so a new row from the beginning is
 * the same account. Each e-mail ever tried would otherwise keep its row for good. An account that
 * proved active keeps its row: it tells the office the letter's flat is activated (one row per real
 * account, not per e-mail tried).
 */
export async function pruneAccountProtection(
  db: Kysely<ServerTables>,
  olderThanDays = PROCESSED_EVENT_RETENTION_DAYS,
): Promise<void> {
  const horizon = new Date(Date.now() - olderThanDays * 24 * 3600 * 1000);
  await db.deleteFrom('processed_webhook_events').where('received_at', '<', horizon).execute();
  await db
    .deleteFrom('account_failures')
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('account_protection')
          .select('email')
          .whereRef('account_protection.email', '=', 'account_failures.email')
          .whereRef('account_failures.occurred_at', '<=', 'account_protection.counted_since'),
      ),
    )
    .execute();
  await db
    .deleteFrom('account_protection')
    .where('lock_state', '=', 'none')
    .where('seen_active_at', 'is', null)
    .where('counted_since', '<', horizon)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('account_failures')
            .select('event_key')
            .whereRef('account_failures.email', '=', 'account_protection.email'),
        ),
      ),
    )
    .execute();
}
