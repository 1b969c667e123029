import { type ActivateUserAccountAnswer, normaliseEmail } from '@concierge/contracts';
import type { Kysely } from '@concierge/database';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerTables } from '../db/schema';
import { AppError } from '../http/errors';
import {
  type ProviderClient,
  type ProviderResult,
  ProviderUnreachableError,
} from '../provider-client/provider-client';
import { setProviderUserStatus } from '../provider-client/users';
import { hashVerificationId } from './verification-id';

export interface ActivateDeps {
  db: Kysely<ServerTables>;
  provider: ProviderClient;
  log: FastifyBaseLogger;
}

const INVALID = new AppError(
  400,
  'email_or_verificationid_invalid',
  'This activation link is invalid or has expired. Please request a new activation e-mail.',
);

/**
 * ARCHITECTURE "Activation": the link's row is read and locked, the provider sets the user VERIFIED,
 * and only then the link is marked used — all in one transaction. A second (or parallel) click
 * waits for the lock, then finds the link used: `isAlreadyActivated`. A failed provider call
 * changes nothing here, so the link still works once the provider is back.
 */
export async function activateAccount(
  deps: ActivateDeps,
  input: { email: string; verificationId: string },
): Promise<ActivateUserAccountAnswer> {
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

    let result: ProviderResult<unknown>;
    try {
      result = await setProviderUserStatus(provider, activation.sub, 'VERIFIED');
    } catch (error) {
      if (!(error instanceof ProviderUnreachableError)) throw error;
      throw new AppError(
        503,
        'activation_failed',
        'The account cannot be activated right now. Please try again later.',
      );
    }
    if (!result.ok) {
      log.warn(
        { sub: activation.sub, status: result.status, code: result.code },
        'the provider refused an activation',
      );
      throw new AppError(
        502,
        'activation_failed',
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
