import type { Kysely } from '@concierge/database';
import type { ServerTables } from '../../db/schema';
import { describeResult } from '../../provider-client/provider-result';
import { oneAtATimePerAccount } from './account-queue';
import { failuresSince, holdAccount } from './account-row';
import type { ProtectionDeps } from './lock-applier';

/** Concierge's count and lock are gone, and the provider lets the account sign in. */
export interface AccountUnlocked {
  outcome: 'unlocked';
  wasLocked: boolean;
  failuresCleared: number;
}

export type AdminUnlock =
  | AccountUnlocked
  /** A lock that is not Concierge's holds at the provider (an operator's DECLINED): nothing changed. */
  | { outcome: 'still_locked' }
  /** The provider has no account with this e-mail: nothing changed. */
  | { outcome: 'no_account' }
  /** The provider could not be asked or did not answer: nothing changed; try again. */
  | { outcome: 'retry' };

/**
 * The office unlocks an account through the admin API (docs/operations.md, "Unlocking an account")
 * as a completed reset would, only without a new password: Concierge's count ends and its lock goes,
 * and at the provider the DECLINED Concierge set and cidaas's brute-force block are lifted. A
 * DECLINED that Concierge did not set stays (whoever set it in cidaas lifts it there). The e-mail is
 * not marked verified: only a link in the mailbox proves it.
 *
 * All or nothing: the account's row is held across the provider call (an applier of the lock in
 * flight finishes first, and none starts meanwhile), and the count and lock are cleared in the same
 * transaction only once the provider has unlocked; any other outcome rolls it back. Idempotent: an
 * account that is not locked is unlocked again, which changes nothing. `record` writes the caller's
 * record of the unlock (the admin API's audit row) in that transaction: it is there exactly when the
 * unlock is.
 */
export async function unlockOnAdminRequest(
  deps: ProtectionDeps,
  email: string,
  record: (trx: Kysely<ServerTables>, unlocked: AccountUnlocked) => Promise<void>,
): Promise<AdminUnlock> {
  const { db, provider, log } = deps;
  // The look-up needs no hold on the row: an e-mail's account does not change with its lock.
  const user = await provider.findUserByEmail(email);
  if (user.kind !== 'answer') {
    log.warn({ outcome: describeResult(user) }, 'admin unlock: the account could not be looked up');
    return { outcome: 'retry' };
  }
  if (!user.data) return { outcome: 'no_account' };
  const { sub } = user.data;
  try {
    return await oneAtATimePerAccount(db, email, () =>
      db.transaction().execute(async (trx): Promise<AdminUnlock> => {
        const account = await holdAccount(trx, email);
        const isLocked = account.lock_state !== 'none';
        const unlocked = await provider.unlockAccount(sub, {
          isOurLock: isLocked && (account.lock_is_ours || account.lock_attempt_unknown),
          verifiesEmail: false,
        });
        if (unlocked.kind !== 'answer') {
          log.warn({ outcome: describeResult(unlocked) }, 'admin unlock: the provider did not unlock');
          throw new NotUnlocked({ outcome: 'retry' });
        }
        if (unlocked.data === 'no_user') throw new NotUnlocked({ outcome: 'no_account' });
        if (unlocked.data === 'still_locked') throw new NotUnlocked({ outcome: 'still_locked' });
        const now = new Date();
        const failuresCleared = await failuresSince(trx, email, account.counted_since);
        await trx
          .updateTable('account_protection')
          .set({
            sub,
            counted_since: now > account.counted_since ? now : account.counted_since,
            lock_state: 'none',
            lock_requested_at: null,
            locked_at: null,
            lock_is_ours: false,
            lock_attempt_unknown: false,
          })
          .where('email', '=', email)
          .execute();
        const result: AccountUnlocked = {
          outcome: 'unlocked',
          wasLocked: isLocked || unlocked.data === 'changed',
          failuresCleared,
        };
        await record(trx, result);
        log.info({ sub, wasLocked: isLocked, failuresCleared }, 'account unlocked through the admin API');
        return result;
      }),
    );
  } catch (error) {
    if (error instanceof NotUnlocked) return error.result;
    throw error;
  }
}

/** Rolls the transaction back: nothing is recorded unless the provider unlocked. */
class NotUnlocked extends Error {
  constructor(readonly result: AdminUnlock) {
    super(result.outcome);
  }
}
