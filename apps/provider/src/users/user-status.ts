import type { ProviderDb, UserStatus } from '../db/schema';
import { enqueueWebhookEvents, newWebhookEvent } from '../webhooks/webhook-events';

export type StatusChange =
  | { result: 'updated'; eventIds: string[] }
  /** The user has this status already: cidaas refuses such a transition (cidaas-facts.md, "Users"). */
  | { result: 'unchanged' }
  | { result: 'not_found' };

/**
 * The admin API's status change. VERIFIED also clears the failed-login count: that is how the server
 * unlocks an account. PENDING → VERIFIED is an older setup's activation: it marks the e-mail verified
 * too and is reported (ACCOUNT_ACTIVATED) in the same transaction.
 */
export async function changeUserStatus(
  db: ProviderDb,
  sub: string,
  status: UserStatus,
  eventClientId: string,
): Promise<StatusChange> {
  return db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('users')
      .select(['status', 'email'])
      .where('sub', '=', sub)
      .forUpdate()
      .executeTakeFirst();
    if (!before) return { result: 'not_found' } as const;
    if (before.status === status) return { result: 'unchanged' } as const;
    const isActivation = before.status === 'PENDING' && status === 'VERIFIED';
    await trx
      .updateTable('users')
      .set({
        status,
        ...(status === 'VERIFIED' ? { failed_login_attempts: 0 } : {}),
        ...(isActivation ? { email_verified: true } : {}),
        updated_at: new Date(),
      })
      .where('sub', '=', sub)
      .execute();
    const eventIds = isActivation
      ? await enqueueWebhookEvents(trx, [
          newWebhookEvent('ACCOUNT_ACTIVATED', { clientId: eventClientId, sub, email: before.email }),
        ])
      : [];
    return { result: 'updated', eventIds } as const;
  });
}
