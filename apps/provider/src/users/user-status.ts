import type { ProviderDb, UserStatus } from '../db/schema';
import { enqueueWebhookEvents, newWebhookEvent } from '../webhooks/webhook-events';

/**
 * The statuses the admin status call may set. BLOCKED (like cidaas's COMBINED and DELETED, which the
 * embedded provider does not have) is system-managed: only the brute-force protection sets it and
 * only the unblock call lifts it (cidaas-facts.md, "Users"; docs.cidaas.com openapi/user/patch-user-status).
 */
export const SETTABLE_STATUSES = ['VERIFIED', 'DECLINED', 'PENDING'] as const;
export type SettableStatus = (typeof SETTABLE_STATUSES)[number];

/** cidaas's documented transitions; any other change (the same status, anything from BLOCKED) is a 400. */
const ALLOWED_TRANSITIONS: Record<UserStatus, readonly SettableStatus[]> = {
  VERIFIED: ['DECLINED', 'PENDING'],
  PENDING: ['VERIFIED', 'DECLINED'],
  DECLINED: ['VERIFIED', 'PENDING'],
  BLOCKED: [],
};

export type StatusChange =
  | { result: 'updated'; eventIds: string[] }
  /** The user has this status already: cidaas refuses such a transition (cidaas-facts.md, "Users"). */
  | { result: 'unchanged' }
  /** Not in cidaas's table of transitions, e.g. leaving BLOCKED. */
  | { result: 'not_allowed'; from: UserStatus }
  | { result: 'not_found' };

/**
 * The admin API's status change. VERIFIED also clears the failed-login count: that is how the server
 * lifts its own lock (DECLINED). PENDING → VERIFIED is an older setup's activation: it marks the
 * e-mail verified too and is reported (ACCOUNT_ACTIVATED) in the same transaction.
 */
export async function changeUserStatus(
  db: ProviderDb,
  sub: string,
  status: SettableStatus,
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
    if (!ALLOWED_TRANSITIONS[before.status].includes(status)) {
      return { result: 'not_allowed', from: before.status } as const;
    }
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

/**
 * Lifts the brute-force block (cidaas's fraud-detection unblock): a BLOCKED user becomes VERIFIED
 * with the failed-login count cleared. False when there was no blocked user with this sub (unknown,
 * or not blocked); one atomic update, so two parallel calls unblock once.
 */
export async function unblockUser(db: ProviderDb, sub: string): Promise<boolean> {
  const unblocked = await db
    .updateTable('users')
    .set({ status: 'VERIFIED', failed_login_attempts: 0, updated_at: new Date() })
    .where('sub', '=', sub)
    .where('status', '=', 'BLOCKED')
    .returning('sub')
    .executeTakeFirst();
  return unblocked !== undefined;
}
