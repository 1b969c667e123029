import type { Kysely } from '@concierge/database';
import { invitationsWithCodes } from '../accounts/invitations';
import { isExpiredCode, type RegistrationCodeRow } from '../accounts/registration-codes';
import type { ServerTables } from '../db/schema';

// Whether an invitation still registers (issue 30), read the same way on arrival at its link, at
// registration and when its invitee asks for a new one.

/** Why an invitation registers no one any more: the code its page and the call answer with. */
export type InvitationEnding = 'invitation_withdrawn' | 'invitation_expired';

/** An invitation with its code's state and expiry. */
export interface InvitationWithCode {
  id: string;
  tenant: string;
  email: string;
  code: string;
  revoked_at: Date | null;
  code_status: RegistrationCodeRow['status'];
  expires_at: Date | null;
}

/** The invitations with their codes' state and expiry, each as an InvitationWithCode. */
export function invitationsWithState(db: Kysely<ServerTables>) {
  return invitationsWithCodes(db).select([
    'invitations.id',
    'invitations.tenant',
    'invitations.email',
    'invitations.code',
    'invitations.revoked_at',
    'registration_codes.status as code_status',
    'registration_codes.expires_at',
  ]);
}

/**
 * Withdrawn (by an operator, or replaced by a newer invitation), expired (its code is unused past
 * its date: the same rule as the claim's, accounts/registration-codes.ts), or undefined while it
 * still registers — or once somebody has registered with it, which ends nothing.
 */
export function invitationEnding(invitation: InvitationWithCode, at: Date): InvitationEnding | undefined {
  if (invitation.revoked_at !== null) return 'invitation_withdrawn';
  const isExpired = isExpiredCode({ status: invitation.code_status, expires_at: invitation.expires_at }, at);
  return isExpired ? 'invitation_expired' : undefined;
}
