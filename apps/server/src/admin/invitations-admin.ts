import type { AdminInvitation, AdminList } from '@concierge/contracts';
import { FALLBACK_LANGUAGE, type Language } from '@concierge/contracts';
import type { Kysely } from '@concierge/database';
import { invitationsWithCodes } from '../accounts/invitations';
import { findCodeHeldByEmail } from '../accounts/registration-codes';
import type { ServerConfig } from '../config';
import type { ServerTables } from '../db/schema';
import { AppError } from '../http/errors';
import type { TenantRegistry } from '../tenants/tenant-registry';
import { type AdminActor, requireTenant } from './admin-auth';
import { recordAdminChange } from './audit-log';
import {
  type InvitationIssueDeps,
  issueInvitation,
  lockInvitee,
  voidOpenInvitations,
  withdrawInvitation,
} from './invitation-issue';
import { adminInvitationById, invitationColumns, toAdminInvitation } from './invitation-rows';

export interface InvitationDeps extends InvitationIssueDeps {
  db: Kysely<ServerTables>;
  registry: TenantRegistry;
  config: InvitationIssueDeps['config'] & Pick<ServerConfig, 'adminQuotas'>;
}

/**
 * A new code bound to one e-mail, the invitation, its e-mail in the outbox and its audit row — one
 * transaction. A person holds one open invitation of a tenant: an older one nobody has registered
 * with is withdrawn in the same transaction (audited as withdrawn), so its link no longer registers.
 * An address that already holds a registration gets none: it would only lead to an error page.
 */
export async function createInvitation(
  deps: InvitationDeps,
  input: { tenant: string; email: string; language?: Language },
  actor: AdminActor,
): Promise<AdminInvitation> {
  const { db, registry } = deps;
  requireTenant(actor, input.tenant);
  const entry = registry.bySubdomain(input.tenant);
  if (!entry) throw new AppError(400, 'unknown_tenant', `No tenant with the subdomain "${input.tenant}".`);
  if (await findCodeHeldByEmail(db, input.email)) {
    throw new AppError(409, 'email_already_registered_db', 'This e-mail address is already registered.');
  }
  const invitee = { tenant: entry.subdomain, email: input.email };
  return db.transaction().execute(async (trx) => {
    const now = new Date();
    await lockInvitee(trx, invitee);
    const replaced = await voidOpenInvitations(trx, invitee, now);
    const invitation = await issueInvitation(
      trx,
      deps,
      { entry, email: input.email, language: input.language ?? FALLBACK_LANGUAGE },
      now,
    );
    for (const id of replaced) {
      await recordAdminChange(trx, actor, {
        action: 'invitation.revoke',
        tenant: entry.subdomain,
        target: id,
        outcome: 'changed',
      });
    }
    await recordAdminChange(trx, actor, {
      action: 'invitation.create',
      tenant: entry.subdomain,
      target: invitation.id,
      outcome: 'changed',
    });
    return invitation;
  });
}

export async function listInvitations(
  deps: Pick<InvitationDeps, 'db' | 'config'>,
  filter: {
    tenant?: string;
    tenants: AdminActor['tenants'];
    limit: number;
    offset: number;
    /** The console's order (the one just sent first); the API's is oldest first. */
    newestFirst?: boolean;
  },
): Promise<AdminList<AdminInvitation>> {
  const { db, config } = deps;
  let query = invitationsWithCodes(db);
  if (filter.tenant) query = query.where('invitations.tenant', '=', filter.tenant);
  if (filter.tenants !== 'all') query = query.where('invitations.tenant', 'in', [...filter.tenants, '']);
  const rows = await query
    .select(invitationColumns)
    .orderBy('invitations.created_at', filter.newestFirst ? 'desc' : 'asc')
    .orderBy('invitations.id')
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
  const { total } = await query.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
  return { items: rows.map((row) => toAdminInvitation(row, config.portalUrl)), total: Number(total) };
}

/**
 * Withdraws an invitation and its code (if still unused), with its audit row, in one transaction;
 * withdrawing twice is no error (audited as unchanged). Once somebody registered with it, there is
 * nothing left to withdraw.
 */
export async function revokeInvitation(
  deps: Pick<InvitationDeps, 'db' | 'config'>,
  id: string,
  actor: AdminActor,
): Promise<AdminInvitation> {
  const { db, config } = deps;
  return db.transaction().execute(async (trx) => {
    const invitation = await lockedInvitation(trx, id);
    requireTenant(actor, invitation.tenant);
    if (!invitation.revoked_at) {
      await refuseRegisteredWith(trx, invitation.code);
      await withdrawInvitation(trx, invitation, new Date());
    }
    await recordAdminChange(trx, actor, {
      action: 'invitation.revoke',
      tenant: invitation.tenant,
      target: id,
      outcome: invitation.revoked_at ? 'unchanged' : 'changed',
    });
    return adminInvitationById(trx, id, config.portalUrl);
  });
}

/** The invitation, held for the transaction; 404 when there is none. */
export async function lockedInvitation(trx: Kysely<ServerTables>, id: string) {
  const invitation = await trx
    .selectFrom('invitations')
    .select(['id', 'tenant', 'email', 'code', 'language', 'revoked_at'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!invitation) throw new AppError(404, 'invitation_not_found', 'No invitation with this id exists.');
  return invitation;
}

/** 409 once somebody registers or has registered with the invitation's code: nothing changes. */
export async function refuseRegisteredWith(trx: Kysely<ServerTables>, code: string): Promise<void> {
  const { status } = await trx
    .selectFrom('registration_codes')
    .select('status')
    .where('code', '=', code)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (status === 'pending' || status === 'used') {
    throw new AppError(
      409,
      'invitation_already_used',
      'Somebody has already registered with this invitation.',
    );
  }
}
