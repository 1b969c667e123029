import type { ProviderDb, UserStatus } from '../db/schema';
import { enqueueWebhookEvents, newWebhookEvent } from '../webhooks/webhook-events';
import type { User } from './users';

export interface StatusChange {
  /** Undefined when no user has this sub. */
  user?: User;
  eventIds: string[];
}

/**
 * The admin API's status change. VERIFIED also clears the failed-login count: that is how the server
 * unlocks an account after a password reset. PENDING → VERIFIED is an activation and is reported
 * (ACCOUNT_ACTIVATED) in the same transaction.
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
      .select('status')
      .where('sub', '=', sub)
      .forUpdate()
      .executeTakeFirst();
    if (!before) return { eventIds: [] };
    const user = await trx
      .updateTable('users')
      .set({
        status,
        ...(status === 'VERIFIED' ? { failed_login_attempts: 0 } : {}),
        updated_at: new Date(),
      })
      .where('sub', '=', sub)
      .returningAll()
      .executeTakeFirstOrThrow();
    const isActivation = before.status === 'PENDING' && status === 'VERIFIED';
    const eventIds = isActivation
      ? await enqueueWebhookEvents(trx, [
          newWebhookEvent('ACCOUNT_ACTIVATED', { clientId: eventClientId, sub, email: user.email }),
        ])
      : [];
    return { user, eventIds };
  });
}
