import type { Kysely } from '@concierge/database';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerTables } from '../db/schema';
import type { ProviderClient } from '../provider-client/provider-client';
import { describeResult } from '../provider-client/provider-result';

export interface AccountLockDeps {
  db: Kysely<ServerTables>;
  provider: ProviderClient;
  log: FastifyBaseLogger;
}

const BATCH_SIZE = 100;

/**
 * The third failure asks for a lock (spec §4), in the transaction that counts it: the request
 * survives a lost provider call, and the lock is applied afterwards (applyAccountLock) and retried
 * by the background job until the provider has it. The lock is Concierge's, so that it holds
 * against a provider that does not lock by itself (cidaas without brute-force protection).
 */
export async function requestAccountLock(
  trx: Kysely<ServerTables>,
  account: { email: string; sub?: string },
) {
  await trx
    .insertInto('account_locks')
    .values({ email: account.email, sub: account.sub ?? null, state: 'pending', requested_at: new Date() })
    .onConflict((conflict) => conflict.column('email').doNothing())
    .execute();
}

/** Whether a lock was asked for the account and the provider does not have it yet. */
export async function isLockPending(db: Kysely<ServerTables>, email: string): Promise<boolean> {
  const lock = await db
    .selectFrom('account_locks')
    .select('state')
    .where('email', '=', email)
    .executeTakeFirst();
  return lock?.state === 'pending';
}

/** Locks the account at the provider if a lock is pending for it; a failure leaves it pending. */
export async function applyAccountLock(deps: AccountLockDeps, email: string): Promise<void> {
  const { db, provider, log } = deps;
  const lock = await db.selectFrom('account_locks').selectAll().where('email', '=', email).executeTakeFirst();
  if (lock?.state !== 'pending') return;
  const sub = lock.sub ?? (await subOf(deps, email));
  if (sub === undefined) return;
  const locked = sub === null ? undefined : await provider.lockAccount(sub);
  if (locked && locked.kind !== 'answer') {
    log.warn({ outcome: describeResult(locked) }, 'lock: the provider did not take it; it stays pending');
    return;
  }
  if (sub === null || locked?.data === 'no_user') {
    // No account behind the e-mail: nothing to lock; the counter alone says "locked".
    await forgetAccountLock(db, email);
    return;
  }
  const recorded = await db
    .updateTable('account_locks')
    .set({ state: 'locked', sub, locked_at: new Date() })
    .where('email', '=', email)
    .where('state', '=', 'pending')
    .returning('email')
    .executeTakeFirst();
  if (!recorded) {
    // A reset lifted the lock while the provider was setting it: undo, or the account stays locked.
    const undone = await provider.unlockAccount(sub, { isOurLock: true });
    log.warn({ outcome: describeResult(undone) }, 'lock: lifted while it was being applied; undone');
    return;
  }
  log.info({ sub }, 'account locked after repeated failed sign-ins');
}

/** The account's sub; null when there is no account, undefined when the provider cannot say now. */
async function subOf(deps: AccountLockDeps, email: string): Promise<string | null | undefined> {
  const user = await deps.provider.findUserByEmail(email);
  if (user.kind === 'answer') return user.data?.sub ?? null;
  deps.log.warn({ outcome: describeResult(user) }, 'lock: the account could not be looked up');
  return undefined;
}

/** Background job: every pending lock, again. Safe on every instance at once. */
export async function applyPendingAccountLocks(deps: AccountLockDeps): Promise<number> {
  const pending = await deps.db
    .selectFrom('account_locks')
    .select('email')
    .where('state', '=', 'pending')
    .orderBy('requested_at')
    .limit(BATCH_SIZE)
    .execute();
  for (const { email } of pending) await applyAccountLock(deps, email);
  return pending.length;
}

/** Whether the DECLINED the account may have at the provider is Concierge's own. */
export async function isLockedByConcierge(db: Kysely<ServerTables>, email: string): Promise<boolean> {
  const lock = await db
    .selectFrom('account_locks')
    .select('email')
    .where('email', '=', email)
    .executeTakeFirst();
  return lock !== undefined;
}

/**
 * A password reset completed at the provider without this server (cidaas's own pages, or an answer
 * that was lost on the way): the provider's PASSWORD_RESET event lifts Concierge's lock too. A
 * failure leaves the lock as it is; the provider delivers the event again.
 */
export async function liftAccountLock(deps: AccountLockDeps, email: string): Promise<'lifted' | 'retry'> {
  const lock = await deps.db
    .selectFrom('account_locks')
    .selectAll()
    .where('email', '=', email)
    .executeTakeFirst();
  if (!lock) return 'lifted';
  const sub = lock.sub ?? (await subOf(deps, email));
  if (sub === undefined) return 'retry';
  if (sub !== null) {
    const unlocked = await deps.provider.unlockAccount(sub, { isOurLock: true });
    if (unlocked.kind !== 'answer') {
      deps.log.warn({ outcome: describeResult(unlocked) }, 'unlock after a reset elsewhere failed');
      return 'retry';
    }
  }
  await forgetAccountLock(deps.db, email);
  return 'lifted';
}

/** After a completed reset: the lock is over (also a pending one, which is then never applied). */
export async function forgetAccountLock(db: Kysely<ServerTables>, email: string): Promise<void> {
  await db.deleteFrom('account_locks').where('email', '=', email).execute();
}
