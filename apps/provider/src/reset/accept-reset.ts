import { timingSafeEqual } from 'node:crypto';
import type { ProviderDb } from '../db/schema';
import { hashPassword } from '../users/passwords';
import { enqueueWebhookEvents, newWebhookEvent } from '../webhooks/webhook-events';
import { hashExchangeId } from './reset-requests';

export interface AcceptResetInput {
  rprq: string;
  exchangeId: string;
  /** Already checked against the password rules by the caller. */
  password: string;
}

export type AcceptResetResult =
  | { isReset: true; eventIds: string[] }
  /** Unknown, wrong exchange id, used or expired: one answer for all, so none can be told apart. */
  | { isReset: false };

/**
 * Sets the new password and uses the request up, in one transaction with the PASSWORD_RESET event.
 * The status stays as it is: the server unlocks afterwards (PATCH status VERIFIED). The failed-login
 * count starts again, since the guesses it counted were against the old password.
 */
export async function acceptPasswordReset(
  db: ProviderDb,
  input: AcceptResetInput,
  fallbackClientId: string,
): Promise<AcceptResetResult> {
  const exchangeIdHash = hashExchangeId(input.exchangeId);
  // A cheap look first, so that hopeless requests do not cost a password hash.
  const candidate = await db
    .selectFrom('password_reset_requests')
    .select('exchange_id_hash')
    .where('rprq', '=', input.rprq)
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  if (!candidate || !isSameHash(candidate.exchange_id_hash, exchangeIdHash)) return { isReset: false };
  const passwordHash = await hashPassword(input.password);

  return db.transaction().execute(async (trx) => {
    const now = new Date();
    // The conditional update decides between parallel accepts: only one finds the request unused.
    const request = await trx
      .updateTable('password_reset_requests')
      .set({ used_at: now })
      .where('rprq', '=', input.rprq)
      .where('exchange_id_hash', '=', exchangeIdHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning(['sub', 'client_id'])
      .executeTakeFirst();
    if (!request) return { isReset: false } as const;
    const user = await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, failed_login_attempts: 0, updated_at: now })
      .where('sub', '=', request.sub)
      .returning(['sub', 'email'])
      .executeTakeFirstOrThrow();
    // Older links of this account stop working once a new password is set.
    await trx
      .updateTable('password_reset_requests')
      .set({ used_at: now })
      .where('sub', '=', user.sub)
      .where('used_at', 'is', null)
      .execute();
    const eventIds = await enqueueWebhookEvents(trx, [
      newWebhookEvent('PASSWORD_RESET', {
        clientId: request.client_id ?? fallbackClientId,
        sub: user.sub,
        email: user.email,
      }),
    ]);
    return { isReset: true, eventIds } as const;
  });
}

function isSameHash(stored: string, presented: string): boolean {
  const a = Buffer.from(stored, 'utf8');
  const b = Buffer.from(presented, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
