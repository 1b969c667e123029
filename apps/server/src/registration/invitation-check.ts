import type { Kysely } from '@concierge/database';
import { type InvitationEnding, invitationEnding, invitationsWithState } from '../accounts/invitations';
import type { ServerTables } from '../db/schema';
import { type AppError, callError } from '../http/errors';

const MISMATCH = callError(
  'register-user',
  400,
  'invitation_mismatch',
  'This invitation does not match the e-mail address and registration code.',
);
// The tenant did nothing wrong here: the property manager took the invitation back, or it ran out.
const ENDED: Record<InvitationEnding, AppError> = {
  invitation_withdrawn: callError(
    'register-user',
    400,
    'invitation_withdrawn',
    'This invitation was withdrawn.',
  ),
  invitation_expired: callError('register-user', 400, 'invitation_expired', 'This invitation has expired.'),
};

/**
 * An invitation binds one code to one e-mail. With invite_id it must exist, be open and name this
 * code and e-mail. Without it, a code that belongs to an invitation still only registers the
 * invited address: otherwise leaving out invite_id would hand the invitee's code to anybody. An
 * invitation that was withdrawn or has expired (at `at`) says so either way (issue 30).
 */
export async function checkInvitation(
  db: Kysely<ServerTables>,
  input: { code: string; email: string; inviteId: string | undefined; at: Date },
): Promise<void> {
  if (input.inviteId !== undefined) {
    const invitation = await invitationsWithState(db)
      .where('invitations.id', '=', input.inviteId.toLowerCase())
      .executeTakeFirst();
    const ending = invitation && invitationEnding(invitation, input.at);
    if (ending) throw ENDED[ending];
    const isMatch =
      invitation !== undefined && invitation.code === input.code && invitation.email === input.email;
    if (!isMatch) throw MISMATCH;
    return;
  }
  const bound = await invitationsWithState(db).where('invitations.code', '=', input.code).executeTakeFirst();
  if (bound === undefined) return;
  const ending = invitationEnding(bound, input.at);
  if (ending) throw ENDED[ending];
  if (bound.email !== input.email) throw MISMATCH;
}
