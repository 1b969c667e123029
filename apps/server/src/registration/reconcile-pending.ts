import type { FastifyBaseLogger } from 'fastify';
import { releaseRegistrationCode } from '../accounts/registration-codes';
import type { ProviderClient } from '../provider-client/provider-client';
import { describeResult } from '../provider-client/provider-result';
import { completeRegistration, type RegistrationDeps } from './complete-registration';

export interface ReconcileDeps extends RegistrationDeps {
  provider: ProviderClient;
  log: FastifyBaseLogger;
}

export interface ReconcileResult {
  /** The provider has the identity: code used, activation e-mail queued. */
  completed: number;
  /** The provider has no such user: the code is usable again. */
  released: number;
  /** The provider could not tell (yet): left pending for the next run. */
  unresolved: number;
}

/**
 * A pending claim older than any registration request can take (the provider call times out long
 * before): its request timed out or its process died, and it must not block the code forever.
 */
export const RECONCILE_AFTER_SECONDS = 60;
const BATCH_SIZE = 100;

/**
 * ARCHITECTURE "Registration": settles codes whose provider call had an unknown outcome. The
 * provider decides — a user with the claimed e-mail means the registration happened — so the code
 * ends used (with activation e-mail) or unused, never half-way. Safe to run on every instance at once.
 */
export async function reconcilePendingRegistrations(
  deps: ReconcileDeps,
  options: { olderThanSeconds: number } = { olderThanSeconds: RECONCILE_AFTER_SECONDS },
): Promise<ReconcileResult> {
  const { db, provider, log } = deps;
  const cutoff = new Date(Date.now() - options.olderThanSeconds * 1000);
  const pending = await db
    .selectFrom('registration_codes')
    .select(['code', 'claimed_email', 'claimed_at', 'claimed_language'])
    .where('status', '=', 'pending')
    .where('claimed_at', '<=', cutoff)
    .orderBy('claimed_at')
    .limit(BATCH_SIZE)
    .execute();
  const result: ReconcileResult = { completed: 0, released: 0, unresolved: 0 };
  for (const row of pending) {
    const email = row.claimed_email;
    if (!email || !row.claimed_at) continue;
    const user = await provider.findUserByEmail(email);
    if (user.kind !== 'answer') {
      result.unresolved += 1;
      log.warn({ outcome: describeResult(user) }, 'reconciler: a pending registration stays pending for now');
      continue;
    }
    try {
      if (user.data) {
        const outcome = await completeRegistration(deps, {
          code: row.code,
          email,
          sub: user.data.sub,
          language: row.claimed_language,
        });
        if (outcome === 'taken_by_another')
          log.error({ sub: user.data.sub }, 'reconciler: code taken by another');
        else result.completed += 1;
      } else {
        const isReleased = await releaseRegistrationCode(db, {
          code: row.code,
          email,
          claimedAt: row.claimed_at,
        });
        if (isReleased) result.released += 1;
      }
    } catch (error) {
      // Only the name and SQLSTATE: a database message may quote the row's values.
      const { name, code } = error as { name?: string; code?: string };
      result.unresolved += 1;
      log.warn({ name, code }, 'reconciler: recording failed; the registration stays pending');
    }
  }
  if (result.completed + result.released + result.unresolved > 0)
    log.info(result, 'pending registrations reconciled');
  return result;
}
