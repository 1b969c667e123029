import { type FormOutcome, UUID_V4 } from '@concierge/contracts';
import type { Kysely } from '@concierge/database';
import type { ServerTables } from '../db/schema';

/**
 * issue 28: a tenant who opens the link of an invitation the property manager has withdrawn is told
 * so on arrival, not after filling in and sending the whole form. The page is rendered as if the
 * form had been refused with `invitation_withdrawn` (the message the submit would get,
 * invitation-check.ts), the inputs as the link fills them. Anything else, and a database that cannot
 * be asked, leaves the page as it is: the submit checks the invitation in any case.
 */
export async function invitationOnArrival(
  db: Kysely<ServerTables>,
  query: Record<string, unknown>,
): Promise<FormOutcome | undefined> {
  const inviteId = typeof query.invite_id === 'string' ? query.invite_id.trim().toLowerCase() : '';
  if (!UUID_V4.test(inviteId)) return undefined;
  const invitation = await db
    .selectFrom('invitations')
    .select('revoked_at')
    .where('id', '=', inviteId)
    .executeTakeFirst()
    .catch(() => undefined);
  if (!invitation?.revoked_at) return undefined;
  return { page: '/register', status: 'refused', values: {}, fieldErrors: [], code: 'invitation_withdrawn' };
}
