import type { AdminInvitation } from '@concierge/contracts';
import type { Kysely } from '@concierge/database';
import {
  INVITATION_STATE_COLUMNS,
  type InvitationWithCode,
  invitationsWithCodes,
} from '../accounts/invitations';
import type { ServerTables } from '../db/schema';
import { invitationLink } from '../mail/links';

// An invitation as the admin API shows it: its row with its code's state and expiry.

export const invitationColumns = [
  ...INVITATION_STATE_COLUMNS,
  'invitations.language',
  'invitations.created_at',
] as const;

export interface InvitationRow extends InvitationWithCode {
  language: string;
  created_at: Date;
}

/** One invitation as the admin API shows it (it must exist). */
export async function adminInvitationById(
  db: Kysely<ServerTables>,
  id: string,
  portalUrl: string,
): Promise<AdminInvitation> {
  const row = await invitationsWithCodes(db)
    .select(invitationColumns)
    .where('invitations.id', '=', id)
    .executeTakeFirstOrThrow();
  return toAdminInvitation(row, portalUrl);
}

export function toAdminInvitation(row: InvitationRow, portalUrl: string): AdminInvitation {
  return {
    id: row.id,
    tenant: row.tenant,
    email: row.email,
    code: row.code,
    codeStatus: row.code_status,
    language: row.language,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at?.toISOString() ?? null,
    revokedAt: row.revoked_at?.toISOString() ?? null,
    registerUrl: invitationLink(portalUrl, {
      code: row.code,
      email: row.email,
      inviteId: row.id,
      subdomain: row.tenant,
    }),
  };
}
