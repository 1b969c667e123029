import type { AdminInvitationRequest, AdminList } from '@concierge/contracts';
import type { Kysely } from '@concierge/database';
import type { ServerTables } from '../db/schema';
import type { AdminActor } from './admin-auth';

/**
 * The invitees' requests for a new invitation that no new invitation has answered yet, oldest first
 * (issue 30): what the office works through with `invitations resend`, which settles them.
 */
export async function listOpenInvitationRequests(
  db: Kysely<ServerTables>,
  filter: { tenant?: string; tenants: AdminActor['tenants']; limit: number; offset: number },
): Promise<AdminList<AdminInvitationRequest>> {
  let query = db.selectFrom('invitation_requests').where('handled_at', 'is', null);
  if (filter.tenant) query = query.where('tenant', '=', filter.tenant);
  if (filter.tenants !== 'all') query = query.where('tenant', 'in', [...filter.tenants, '']);
  const rows = await query
    .select(['id', 'tenant', 'email', 'invitation_id', 'created_at'])
    .orderBy('created_at')
    .orderBy('id')
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
  const { total } = await query.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
  return {
    items: rows.map((row) => ({
      id: row.id,
      tenant: row.tenant,
      email: row.email,
      invitationId: row.invitation_id,
      createdAt: row.created_at.toISOString(),
    })),
    total: Number(total),
  };
}
