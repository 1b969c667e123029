import { normaliseEmail, type PortalCallAnswer } from '@concierge/contracts';
import type { Kysely } from '@concierge/database';
import type { FastifyBaseLogger } from 'fastify';
import { hashVerificationId } from '../accounts/verification-id';
import type { ServerTables } from '../db/schema';
import { callError, providerUnreachable } from '../http/errors';
import type { ProviderClient } from '../provider-client/provider-client';
import { describeResult } from '../provider-client/provider-result';

export interface ActivateDeps {
  db: Kysely<ServerTables>;
  provider: ProviderClient;
  log: FastifyBaseLogger;
}

const INVALID = callError(
  'activate-user-account',
  400,
  'email_or_verificationid_invalid',
  'This activation link is invalid or has expired. Please request a new activation e-mail.',
);

/**
 * ARCHITECTURE "Activation": the link's row is read and locked, the provider marks the e-mail verified,
 * and only then the link is marked used — all in one transaction. A second (or parallel) click
 * waits for the lock, then finds the link used: `isAlreadyActivated`. A failed provider call
 * changes nothing here, so the link still works once the provider is back.
 */
export async function activateAccount(
  deps: ActivateDeps,
  input: { email: string; verificationId: string },
): Promise<PortalCallAnswer<'activate-user-account'>> {
  const { db, provider, log } = deps;
  const email = normaliseEmail(input.email);
  const verificationHash = hashVerificationId(input.verificationId);
  return db.transaction().execute(async (trx) => {
    const activation = await trx
      .selectFrom('activations')
      .select(['id', 'email', 'sub', 'expires_at', 'used_at', 'voided_at'])
      .where('verification_hash', '=', verificationHash)
      .forUpdate()
      .executeTakeFirst();
    if (!activation || activation.email !== email) throw INVALID;
    if (activation.used_at) return { isAlreadyActivated: true };
    if (activation.voided_at || activation.expires_at.getTime() <= Date.now()) throw INVALID;

    // The link proved the mailbox: the provider marks the e-mail verified (cidaas-facts.md, "Users").
    const result = await provider.verifyAccount(activation.sub);
    if (result.kind === 'unknown') {
      log.warn({ reason: result.reason }, 'activation: the provider did not answer');
      throw providerUnreachable('The account cannot be activated right now. Please try again later.');
    }
    if (result.kind === 'refusal' || result.data === 'no_user') {
      log.warn(
        { sub: activation.sub, outcome: describeResult(result) },
        'the provider refused an activation',
      );
      throw callError(
        'activate-user-account',
        502,
        'default',
        'The account could not be activated. Please contact support.',
      );
    }
    await trx
      .updateTable('activations')
      .set({ used_at: new Date() })
      .where('id', '=', activation.id)
      .execute();
    return { isAlreadyActivated: false };
  });
}
