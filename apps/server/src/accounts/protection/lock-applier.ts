import type { Kysely } from '@concierge/database';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerTables } from '../../db/schema';
import type { ProviderClient } from '../../provider-client/provider-client';
import { answer, describeResult } from '../../provider-client/provider-result';

export interface ProtectionDeps {
  db: Kysely<ServerTables>;
  provider: ProviderClient;
  log: FastifyBaseLogger;
}

const BATCH_SIZE = 100;

export type LockApplication = 'locked' | 'no_account' | 'not_due' | 'busy' | 'failed';

/**
 * Sets Concierge's lock at the provider (DECLINED, spec §4) for an account whose lock is asked for.
 *
 * The account's row is held from before the provider call until the outcome is recorded: whoever
 * else wants to change this account's lock — another instance's applier, the background job, a
 * reset — either skips it (appliers: somebody is at it already) or waits (a reset, so that its
 * unlock always comes after this lock, never before it). So no applier ever meets a state it did
 * not expect, and nothing is ever undone. A failed call leaves the request as it is, for the next
 * failure or the background job; one whose answer was lost is remembered, so that the DECLINED it
 * may have set counts as Concierge's own.
 */
export async function applyLock(deps: ProtectionDeps, email: string): Promise<LockApplication> {
  const { db, provider, log } = deps;
  // The look-up needs no hold on the row: an e-mail's account does not change with the lock. A sub
  // on record came from the provider for this e-mail, which saves the look-up.
  const known = await db
    .selectFrom('account_protection')
    .select('sub')
    .where('email', '=', email)
    .executeTakeFirst();
  const user = known?.sub ? answer({ sub: known.sub }) : await provider.findUserByEmail(email);
  if (user.kind !== 'answer') {
    log.warn(
      { outcome: describeResult(user) },
      'lock: the account could not be looked up; it stays asked for',
    );
    return 'failed';
  }
  return db.transaction().execute(async (trx): Promise<LockApplication> => {
    const account = await trx
      .selectFrom('account_protection')
      .selectAll()
      .where('email', '=', email)
      .where('lock_state', '=', 'requested')
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!account) {
      const isDue = await trx
        .selectFrom('account_protection')
        .select('email')
        .where('email', '=', email)
        .where('lock_state', '=', 'requested')
        .executeTakeFirst();
      return isDue ? 'busy' : 'not_due';
    }
    const locked = (sub: string | null, isOurs: boolean) =>
      trx
        .updateTable('account_protection')
        .set({
          lock_state: 'locked',
          sub,
          locked_at: new Date(),
          lock_is_ours: isOurs,
          lock_attempt_unknown: false,
        })
        .where('email', '=', email)
        .execute();
    if (!user.data) {
      // No account behind the e-mail: nothing to lock; the counter alone says "locked".
      await locked(null, false);
      return 'no_account';
    }
    const sub = user.data.sub;
    const result = await provider.lockAccount(sub);
    if (result.kind === 'unknown') {
      await trx
        .updateTable('account_protection')
        .set({ lock_attempt_unknown: true, sub })
        .where('email', '=', email)
        .execute();
      log.warn({ outcome: describeResult(result) }, 'lock: no answer from the provider; it stays asked for');
      return 'failed';
    }
    if (result.kind === 'refusal') {
      log.error({ outcome: describeResult(result) }, 'lock: the provider refused it; it stays asked for');
      return 'failed';
    }
    if (result.data === 'no_user' && known?.sub) {
      // The sub on record is gone (the account was deleted; the e-mail may have a new one): forget
      // it, and the lock stays asked for, to be looked up by the e-mail on the next try.
      await trx.updateTable('account_protection').set({ sub: null }).where('email', '=', email).execute();
      log.warn('lock: the account on record is gone; it is looked up again by its e-mail');
      return 'failed';
    }
    if (result.data === 'no_user') {
      await locked(null, false);
      return 'no_account';
    }
    // A DECLINED found in place is ours if we set it before (an earlier lock, or a lost answer);
    // an operator's stays the operator's, and a reset then leaves it.
    const isOurs = result.data === 'changed' || account.lock_is_ours || account.lock_attempt_unknown;
    await locked(sub, isOurs);
    if (result.data === 'changed') log.info({ sub }, 'account locked after repeated failed sign-ins');
    return 'locked';
  });
}

/** Background job: every lock still asked for, again. Safe on every instance at once. */
export async function applyRequestedLocks(deps: ProtectionDeps): Promise<number> {
  const requested = await deps.db
    .selectFrom('account_protection')
    .select('email')
    .where('lock_state', '=', 'requested')
    .orderBy('lock_requested_at')
    .limit(BATCH_SIZE)
    .execute();
  for (const { email } of requested) await applyLock(deps, email);
  return requested.length;
}
