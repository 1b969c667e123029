import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { ProviderDb } from '../db/schema';
import { renderPasswordChangedMail } from '../mail/password-changed-mail';
import { revokeAccountPayloads } from '../oidc/adapter';
import type { ClientDirectory } from '../oidc/clients';
import { enqueue } from '../outbox/outbox';
import { hashPassword } from '../users/passwords';
import { enqueueWebhookEvents, newWebhookEvent } from '../webhooks/webhook-events';
import { mailLanguage } from './initiate-reset';
import { hashExchangeId } from './reset-requests';

export interface AcceptResetInput {
  rprq: string;
  exchangeId: string;
  /** Already checked against the password rules by the caller. */
  password: string;
  /** Accept-Language of the call; used for the notice when the user has no language on record. */
  acceptLanguage?: string;
}

export interface AcceptResetContext {
  /** The client reported in the event when the reset request has none. */
  fallbackClientId: string;
  /** For the notice's tenant name and brand colour: those of the client the reset was asked for. */
  clients: ClientDirectory;
  /** The name to show when that client is not known. */
  fallbackTenantName: string;
}

export type AcceptResetResult =
  /** The PASSWORD_RESET event and the "password changed" notice, to be delivered after the commit. */
  | { isReset: true; eventIds: string[]; mailIds: string[] }
  /** Unknown, wrong exchange id, used or expired: one answer for all, so none can be told apart. */
  | { isReset: false };

/**
 * Sets the new password and uses the request up, in one transaction with the PASSWORD_RESET event.
 * The status stays as it is: the server unlocks afterwards (PATCH status VERIFIED). The failed-login
 * count starts again, since the guesses it counted were against the old password.
 *
 * Whoever else was signed in is evicted in the same transaction: every session, grant, code and
 * token of the account is revoked (someone who knew the old password may hold them), and the user is
 * told by e-mail that the password was changed — all of it or, if anything fails, none of it.
 */
export async function acceptPasswordReset(
  db: ProviderDb,
  input: AcceptResetInput,
  context: AcceptResetContext,
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
      .returning(['sub', 'email', 'locale'])
      .executeTakeFirstOrThrow();
    // Older links of this account stop working once a new password is set.
    await trx
      .updateTable('password_reset_requests')
      .set({ used_at: now })
      .where('sub', '=', user.sub)
      .where('used_at', 'is', null)
      .execute();
    await revokeAccountPayloads(trx, user.sub);
    const client = request.client_id ? context.clients.get(request.client_id) : undefined;
    const notice = renderPasswordChangedMail({
      to: user.email,
      language: mailLanguage(user.locale, input.acceptLanguage),
      tenantName: client?.client_name ?? context.fallbackTenantName,
      brandColor: client?.brand_color,
      changedAt: now,
    });
    const mailIds = await enqueue(trx, 'mail_outbox', [{ id: randomUUID(), payload: notice }]);
    const eventIds = await enqueueWebhookEvents(trx, [
      newWebhookEvent('PASSWORD_RESET', {
        clientId: request.client_id ?? context.fallbackClientId,
        sub: user.sub,
        email: user.email,
      }),
    ]);
    return { isReset: true, eventIds, mailIds } as const;
  });
}

function isSameHash(stored: string, presented: string): boolean {
  const a = Buffer.from(stored, 'utf8');
  const b = Buffer.from(presented, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
