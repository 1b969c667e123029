import type { Kysely } from '@concierge/database';
import type { ServerTables } from '../db/schema';
import { isExpiredCode, type RegistrationCodeRow } from './registration-codes';

// An invitation is registered with, and expires, through its code (issue 30). Whether it still
// registers is read here, the same way on arrival at its link, at registration, when its invitee
// asks for a new one (registration/) and in the office's figures and lists (admin/).

/**
 * The invitations joined with their codes: an invitation is registered with, and expires, through
 * its code (issue 30). Read so by the admin API (admin/) and by the invitee's pages (registration/).
 */
export function invitationsWithCodes(db: Kysely<ServerTables>) {
  return db
    .selectFrom('invitations')
    .innerJoin('registration_codes', 'registration_codes.code', 'invitations.code');
}

/** What an invitation's state is read from: its row, and its code's state and expiry. */
export const INVITATION_STATE_COLUMNS = [
  'invitations.id',
  'invitations.tenant',
  'invitations.email',
  'invitations.code',
  'invitations.revoked_at',
  'registration_codes.status as code_status',
  'registration_codes.expires_at',
] as const;

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
  return invitationsWithCodes(db).select(INVITATION_STATE_COLUMNS);
}

/** Why an invitation registers no one any more: the code its page and the call answer with. */
export type InvitationEnding = 'invitation_withdrawn' | 'invitation_expired';

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

/**
 * The open invitations among `query`'s: neither withdrawn, registered with, nor past their date
 * (at `at`) — in SQL, what invitationEnding says of one row.
 */
export function openAt<Q extends ReturnType<typeof invitationsWithCodes>>(query: Q, at: Date): Q {
  return query
    .where('invitations.revoked_at', 'is', null)
    .where('registration_codes.status', '=', 'unused')
    .where((eb) =>
      eb.or([eb('registration_codes.expires_at', 'is', null), eb('registration_codes.expires_at', '>', at)]),
    ) as Q;
}
