import { answer, describeResult } from '../../provider-client/provider-result';
import { oneAtATimePerAccount } from './account-queue';
import { claimEventKey, failuresSince, holdAccount, LOCK_AFTER_FAILURES, laterOf } from './account-row';
import type { ProtectionDeps } from './lock-applier';

export interface CompletedReset {
  /** Normalised. */
  email: string;
  /** When the new password was set (the event's own time, or now for a reset this server completed). */
  at: Date;
  /** The provider's event: deduplicated by it. */
  eventKey?: string;
  /**
   * This server completed the reset: the account is unlocked and its e-mail verified at the provider
   * in any case (cidaas's own brute-force block too). An event from the provider only lifts the lock
   * Concierge holds.
   */
  isOwnReset: boolean;
}

export type ResetUnlock =
  /** The account signs in with the new password (as far as Concierge's and cidaas's locks go). */
  | 'unlocked'
  /** A lock Concierge cannot lift holds: an operator's DECLINED, cidaas's block that stayed, or failures after the reset. */
  | 'still_locked'
  | 'no_account'
  | 'duplicate'
  /** The provider could not be asked or did not answer: nothing was recorded; try again. */
  | 'retry';

/**
 * A completed password reset ends the account's count and lifts its lock (spec §2, §4) — in event
 * time: failures after the reset still count, and if three of them came after it, their lock stays.
 * The account's row is held across the provider call, so an applier of the lock in flight finishes
 * first and this unlock comes after it. A failed call records nothing: the page (or the provider's
 * redelivery) asks again.
 */
export async function unlockAfterReset(deps: ProtectionDeps, reset: CompletedReset): Promise<ResetUnlock> {
  const { db, provider, log } = deps;
  // The look-up needs no hold on the row (an e-mail's account does not change with its lock), so it
  // is done before the transaction where the lock is known to need it; a sub on record came from the
  // provider for this e-mail (lock-applier.ts) and saves it.
  const before = await db
    .selectFrom('account_protection')
    .select(['lock_state', 'sub'])
    .where('email', '=', reset.email)
    .executeTakeFirst();
  const lookUp = () =>
    before?.sub ? Promise.resolve(answer({ sub: before.sub })) : provider.findUserByEmail(reset.email);
  let user =
    reset.isOwnReset || (before !== undefined && before.lock_state !== 'none') ? await lookUp() : undefined;
  if (user && user.kind !== 'answer') {
    log.warn({ outcome: describeResult(user) }, 'reset: the account could not be looked up');
    return 'retry';
  }
  try {
    return await oneAtATimePerAccount(db, reset.email, () =>
      db.transaction().execute(async (trx): Promise<ResetUnlock> => {
        if (reset.eventKey !== undefined && !(await claimEventKey(trx, reset.eventKey))) return 'duplicate';
        const account = await holdAccount(trx, reset.email);
        const countedSince = reset.at > account.counted_since ? reset.at : account.counted_since;
        const isProviderLockNewer =
          account.lock_state !== 'none' &&
          !account.lock_is_ours &&
          (account.lock_requested_at?.getTime() ?? 0) > reset.at.getTime();
        const isLockNewer =
          isProviderLockNewer || (await failuresSince(trx, reset.email, countedSince)) >= LOCK_AFTER_FAILURES;
        const isLifting = account.lock_state !== 'none' && !isLockNewer;
        let outcome: ResetUnlock = isLockNewer && account.lock_state !== 'none' ? 'still_locked' : 'unlocked';
        if ((reset.isOwnReset || isLifting) && !isLockNewer) {
          // A lock asked for since the first look: the look-up now, the row held.
          user ??= await lookUp();
          if (user.kind !== 'answer') throw new UnlockFailed(describeResult(user));
          if (!user.data) {
            outcome = 'no_account';
          } else {
            const lock = { isOurLock: isLifting && (account.lock_is_ours || account.lock_attempt_unknown) };
            let sub = user.data.sub;
            let unlocked = await provider.unlockAccount(sub, lock);
            if (unlocked.kind === 'answer' && unlocked.data === 'no_user' && before?.sub) {
              // The sub on record is gone (the account deleted, the e-mail perhaps registered anew).
              const fresh = await provider.findUserByEmail(reset.email);
              if (fresh.kind !== 'answer') throw new UnlockFailed(describeResult(fresh));
              sub = fresh.data?.sub ?? sub;
              if (fresh.data) unlocked = await provider.unlockAccount(sub, lock);
              await trx
                .updateTable('account_protection')
                .set({ sub: fresh.data?.sub ?? null })
                .where('email', '=', reset.email)
                .execute();
            }
            if (unlocked.kind !== 'answer') throw new UnlockFailed(describeResult(unlocked));
            if (unlocked.data === 'still_locked') outcome = 'still_locked';
            if (unlocked.data === 'no_user') outcome = 'no_account';
          }
        }
        await trx
          .updateTable('account_protection')
          .set({
            counted_since: countedSince,
            // A completed reset activates an account never activated (spec §4).
            ...(outcome === 'no_account'
              ? {}
              : { seen_active_at: laterOf(account.seen_active_at, reset.at) }),
            ...(isLifting
              ? { lock_state: 'none', lock_requested_at: null, locked_at: null, lock_is_ours: false }
              : {}),
            lock_attempt_unknown: isLifting ? false : account.lock_attempt_unknown,
          })
          .where('email', '=', reset.email)
          .execute();
        return outcome;
      }),
    );
  } catch (error) {
    if (!(error instanceof UnlockFailed)) throw error;
    log.warn({ outcome: error.message }, 'reset: the account could not be unlocked at the provider');
    return 'retry';
  }
}

/** Rolls the transaction back: nothing is recorded when the provider did not unlock. */
class UnlockFailed extends Error {}
