import type { AdminInvitation } from '@concierge/contracts';

/** What became of an invitation, as the office reads it. */
export type InvitationState = 'open' | 'registered' | 'withdrawn' | 'expired';

/**
 * Registered first: once somebody registered with its code, withdrawing or expiring changes
 * nothing; a registration under way counts, as it can no longer be withdrawn either.
 */
export function invitationState(invitation: AdminInvitation, now: number): InvitationState {
  if (invitation.codeStatus === 'used' || invitation.codeStatus === 'pending') return 'registered';
  if (invitation.revokedAt !== null || invitation.codeStatus === 'revoked') return 'withdrawn';
  if (invitation.expiresAt !== null && Date.parse(invitation.expiresAt) <= now) return 'expired';
  return 'open';
}
