import type { ProviderDb } from '../db/schema';
import { enqueueWebhookEvents, newWebhookEvent } from '../webhooks/webhook-events';

export type EmailVerificationChange = { result: 'updated'; eventIds: string[] } | { result: 'not_found' };

/**
 * Sets whether the user's e-mail is verified: how the server activates a self-registered user, who
 * is VERIFIED already (provider-protocol.md, "Users and statuses"). false → true is the activation
 * and is reported (ACCOUNT_ACTIVATED) in the same transaction; setting the value it has is a no-op.
 */
export async function setEmailVerified(
  db: ProviderDb,
  sub: string,
  isVerified: boolean,
  eventClientId: string,
): Promise<EmailVerificationChange> {
  return db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('users')
      .select(['email', 'email_verified'])
      .where('sub', '=', sub)
      .forUpdate()
      .executeTakeFirst();
    if (!before) return { result: 'not_found' } as const;
    if (before.email_verified === isVerified) return { result: 'updated', eventIds: [] } as const;
    await trx
      .updateTable('users')
      .set({ email_verified: isVerified, updated_at: new Date() })
      .where('sub', '=', sub)
      .execute();
    const eventIds = isVerified
      ? await enqueueWebhookEvents(trx, [
          newWebhookEvent('ACCOUNT_ACTIVATED', { clientId: eventClientId, sub, email: before.email }),
        ])
      : [];
    return { result: 'updated', eventIds } as const;
  });
}
