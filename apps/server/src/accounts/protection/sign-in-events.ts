import type { Kysely } from '@concierge/database';
import type { ServerTables } from '../../db/schema';
import { oneAtATimePerAccount } from './account-queue';
import {
  type AccountRow,
  claimEventKey,
  failuresSince,
  holdAccount,
  LOCK_AFTER_FAILURES,
  laterOf,
} from './account-row';

/** One provider event about one account, at the event's own time. */
export interface AccountEvent {
  /** Unique per event (its id, or what stands for it): a redelivery changes nothing. */
  key: string;
  /** Normalised. */
  email: string;
  at: Date;
}

export interface FailureOutcome {
  outcome: 'counted' | 'duplicate' | 'stale';
  /** The account's lock is asked for and not yet confirmed at the provider: apply it now. */
  isLockDue: boolean;
  /** This failure asked for the lock of an account that had none (a lock, not a re-check). */
  isNewLock: boolean;
}

/**
 * A failed sign-in, through any tenant: it counts for the account. At the limit the lock is asked
 * for in the same transaction; a failure for an account that is locked already asks again, so that
 * the provider's status is checked once more (and set again if anybody lifted it without a reset).
 * A failure from before the account's last success, activation or reset counts no more.
 */
export async function recordFailedSignIn(
  db: Kysely<ServerTables>,
  failure: AccountEvent & { tenant: string; sub?: string },
): Promise<FailureOutcome> {
  return oneAtATimePerAccount(db, failure.email, () =>
    db.transaction().execute(async (trx) => {
      const isFirstDelivery = await claimEventKey(trx, failure.key);
      const account = await holdAccount(trx, failure.email);
      const unchanged = { isLockDue: account.lock_state === 'requested', isNewLock: false };
      if (!isFirstDelivery) return { outcome: 'duplicate', ...unchanged };
      if (failure.at <= account.counted_since) return { outcome: 'stale', ...unchanged };
      await trx
        .insertInto('account_failures')
        .values({
          event_key: failure.key,
          email: failure.email,
          tenant: failure.tenant,
          occurred_at: failure.at,
        })
        .execute();
      const failures = await failuresSince(trx, failure.email, account.counted_since);
      const isLockAsked = failures >= LOCK_AFTER_FAILURES || account.lock_state !== 'none';
      // The provider's own answer for this e-mail's sub (accountEventOf): the lock needs no look-up then.
      const sub = account.sub ?? failure.sub ?? null;
      if (!isLockAsked) {
        if (sub !== account.sub) {
          await trx
            .updateTable('account_protection')
            .set({ sub })
            .where('email', '=', failure.email)
            .execute();
        }
        return { outcome: 'counted', isLockDue: false, isNewLock: false };
      }
      await trx
        .updateTable('account_protection')
        .set({
          sub,
          lock_state: 'requested',
          // The first request's time stays: a reset after it, and only such a reset, lifts the lock.
          lock_requested_at: account.lock_requested_at ?? failure.at,
        })
        .where('email', '=', failure.email)
        .execute();
      return { outcome: 'counted', isLockDue: true, isNewLock: account.lock_state === 'none' };
    }),
  );
}

/**
 * One event's change of the account, once per event key, in one transaction that holds the account.
 * `change` returns the columns to set, or nothing when the event changes nothing now.
 */
async function applyOnce(
  db: Kysely<ServerTables>,
  event: AccountEvent,
  change: (account: AccountRow) => Partial<AccountRow> | undefined,
): Promise<'applied' | 'duplicate'> {
  return oneAtATimePerAccount(db, event.email, () =>
    db.transaction().execute(async (trx) => {
      if (!(await claimEventKey(trx, event.key))) return 'duplicate';
      const columns = change(await holdAccount(trx, event.email));
      if (columns) {
        await trx.updateTable('account_protection').set(columns).where('email', '=', event.email).execute();
      }
      return 'applied';
    }),
  );
}

/**
 * A successful sign-in or an activation: the failures before it no longer count. Ordered by the
 * event's own time, so a late event clears only what came before it. It never lifts a lock: only a
 * completed reset does (spec §4), and a right password that slipped through before the lock landed
 * must not undo it. Either proves the account active, however late it comes.
 */
export function recordSignInSuccess(db: Kysely<ServerTables>, event: AccountEvent) {
  return applyOnce(db, event, (account) => ({
    seen_active_at: laterOf(account.seen_active_at, event.at),
    ...(event.at > account.counted_since ? { counted_since: event.at } : {}),
  }));
}

/**
 * The provider locked the account by itself (cidaas's brute-force protection, ACCOUNT_LOCKED): the
 * counter says "locked" from now on, and the next completed reset lifts it. Not Concierge's lock.
 */
export function recordProviderLock(db: Kysely<ServerTables>, event: AccountEvent) {
  return applyOnce(db, event, (account) =>
    account.lock_state === 'none' && event.at > account.counted_since
      ? { lock_state: 'locked', lock_requested_at: event.at, locked_at: new Date(), lock_is_ours: false }
      : undefined,
  );
}
