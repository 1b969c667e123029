import type { Kysely } from '@concierge/database';
import type { ServerTables } from '../db/schema';
import { callError } from '../http/errors';

const MISMATCH = callError(
  'register-user',
  400,
  'invitation_mismatch',
  'This invitation does not match the e-mail address and registration code.',
);
const WITHDRAWN = callError('register-user', 400, 'invitation_withdrawn', 'This invitation was withdrawn.');

/**
 * An invitation binds one code to one e-mail. With invite_id it must exist, be open and name this
 * code and e-mail. Without it, a code that belongs to an open invitation still only registers the
 * invited address: otherwise leaving out invite_id would hand the invitee's code to anybody.
 */
export async function checkInvitation(
  db: Kysely<ServerTables>,
  input: { code: string; email: string; inviteId: string | undefined },
): Promise<void> {
  if (input.inviteId !== undefined) {
    const invitation = await db
      .selectFrom('invitations')
      .select(['code', 'email', 'revoked_at'])
      .where('id', '=', input.inviteId.toLowerCase())
      .executeTakeFirst();
    // The tenant did nothing wrong here: the property manager took the invitation back.
    if (invitation !== undefined && invitation.revoked_at !== null) throw WITHDRAWN;
    const isMatch =
      invitation !== undefined && invitation.code === input.code && invitation.email === input.email;
    if (!isMatch) throw MISMATCH;
    return;
  }
  const bound = await db
    .selectFrom('invitations')
    .select('email')
    .where('code', '=', input.code)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (bound && bound.email !== input.email) throw MISMATCH;
}
