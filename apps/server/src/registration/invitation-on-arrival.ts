import { type FormOutcome, registerForm, UUID_V4 } from '@concierge/contracts';
import type { Kysely } from '@concierge/database';
import { invitationEnding, invitationsWithState } from '../accounts/invitations';
import type { ServerTables } from '../db/schema';

/**
 * issue 28: a tenant who opens the link of an invitation the property manager has withdrawn — or,
 * issue 30, one past its date — is told so on arrival, not after filling in and sending the whole
 * form. The page is rendered as if the form had been refused with `invitation_withdrawn` or
 * `invitation_expired` (the message the submit would get, invitation-check.ts), with the link's
 * parameters, and offers to ask the property manager for a new invitation. Anything else, and a
 * database that cannot be asked, leaves the page as it is: the submit checks the invitation in any
 * case.
 */
export async function invitationOnArrival(
  db: Kysely<ServerTables>,
  query: Record<string, unknown>,
): Promise<FormOutcome | undefined> {
  const inviteId = typeof query.invite_id === 'string' ? query.invite_id.trim().toLowerCase() : '';
  if (!UUID_V4.test(inviteId)) return undefined;
  const invitation = await invitationsWithState(db)
    .where('invitations.id', '=', inviteId)
    .executeTakeFirst()
    .catch(() => undefined);
  const ending = invitation && invitationEnding(invitation, new Date());
  if (!ending) return undefined;
  return {
    page: registerForm.page,
    call: registerForm.call,
    status: 'refused',
    values: {},
    fieldErrors: [],
    code: ending,
  };
}
