import { randomUUID } from 'node:crypto';
import { FALLBACK_LANGUAGE, type Language } from '@concierge/contracts';
import type { Kysely } from '@concierge/database';
import { findCodeHeldByEmail } from '../accounts/registration-codes';
import type { ServerConfig } from '../config';
import type { ServerTables } from '../db/schema';
import { AppError } from '../http/errors';
import { renderInvitationMail } from '../mail/invitation-mail';
import { invitationLink } from '../mail/links';
import { mailBrand } from '../mail/mail-brand';
import { enqueueMail } from '../outbox/mail-outbox';
import type { TenantRegistry } from '../tenants/tenant-registry';
import type { AdminActor } from './admin-auth';
import type { AdminInvitation, AdminList } from './admin-schemas';
import { recordAdminChange } from './audit-log';

export interface InvitationDeps {
  db: Kysely<ServerTables>;
  registry: TenantRegistry;
  config: Pick<ServerConfig, 'portalUrl'>;
}

const invitationColumns = [
  'invitations.id',
  'invitations.tenant',
  'invitations.email',
  'invitations.code',
  'invitations.language',
  'invitations.created_at',
  'invitations.revoked_at',
  'registration_codes.status as code_status',
] as const;

/**
 * A new code bound to one e-mail, the invitation, its e-mail in the outbox and its audit row — one
 * transaction. An address that already holds a registration gets none: it would only lead to an
 * error page.
 */
export async function createInvitation(
  deps: InvitationDeps,
  input: { tenant: string; email: string; language?: Language },
  actor: AdminActor,
): Promise<AdminInvitation> {
  const { db, registry, config } = deps;
  const entry = registry.bySubdomain(input.tenant);
  if (!entry) throw new AppError(400, 'unknown_tenant', `No tenant with the subdomain "${input.tenant}".`);
  if (await findCodeHeldByEmail(db, input.email)) {
    throw new AppError(409, 'email_already_registered_db', 'This e-mail address is already registered.');
  }
  const language = input.language ?? FALLBACK_LANGUAGE;
  const id = randomUUID();
  const code = randomUUID();
  const now = new Date();
  const link = invitationLink(config.portalUrl, {
    code,
    email: input.email,
    inviteId: id,
    subdomain: entry.subdomain,
  });
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('registration_codes')
      .values({ code, tenant: entry.subdomain, status: 'unused', created_at: now })
      .execute();
    await trx
      .insertInto('invitations')
      .values({ id, tenant: entry.subdomain, email: input.email, code, language, created_at: now })
      .execute();
    await enqueueMail(
      trx,
      renderInvitationMail({
        to: input.email,
        language,
        brand: mailBrand(registry, entry, config.portalUrl),
        code,
        link,
      }),
    );
    await recordAdminChange(trx, actor, {
      action: 'invitation.create',
      tenant: entry.subdomain,
      target: id,
      outcome: 'changed',
    });
  });
  return {
    id,
    tenant: entry.subdomain,
    email: input.email,
    code,
    codeStatus: 'unused',
    language,
    createdAt: now.toISOString(),
    revokedAt: null,
    registerUrl: link,
  };
}

export async function listInvitations(
  deps: Omit<InvitationDeps, 'registry'>,
  filter: { tenant?: string; limit: number; offset: number },
): Promise<AdminList<AdminInvitation>> {
  const { db, config } = deps;
  let query = db
    .selectFrom('invitations')
    .innerJoin('registration_codes', 'registration_codes.code', 'invitations.code');
  if (filter.tenant) query = query.where('invitations.tenant', '=', filter.tenant);
  const rows = await query
    .select(invitationColumns)
    .orderBy('invitations.created_at')
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
  deps: Omit<InvitationDeps, 'registry'>,
  id: string,
  actor: AdminActor,
): Promise<AdminInvitation> {
  const { db, config } = deps;
  return db.transaction().execute(async (trx) => {
    const invitation = await trx
      .selectFrom('invitations')
      .select(['id', 'tenant', 'code', 'revoked_at'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!invitation) throw new AppError(404, 'invitation_not_found', 'No invitation with this id exists.');
    if (!invitation.revoked_at) {
      const code = await trx
        .selectFrom('registration_codes')
        .select('status')
        .where('code', '=', invitation.code)
        .forUpdate()
        .executeTakeFirstOrThrow();
      if (code.status === 'pending' || code.status === 'used') {
        throw new AppError(
          409,
          'invitation_already_used',
          'Somebody has already registered with this invitation.',
        );
      }
      const now = new Date();
      await trx.updateTable('invitations').set({ revoked_at: now }).where('id', '=', id).execute();
      await trx
        .updateTable('registration_codes')
        .set({ status: 'revoked', revoked_at: now })
        .where('code', '=', invitation.code)
        .where('status', '=', 'unused')
        .execute();
    }
    await recordAdminChange(trx, actor, {
      action: 'invitation.revoke',
      tenant: invitation.tenant,
      target: id,
      outcome: invitation.revoked_at ? 'unchanged' : 'changed',
    });
    const row = await trx
      .selectFrom('invitations')
      .innerJoin('registration_codes', 'registration_codes.code', 'invitations.code')
      .select(invitationColumns)
      .where('invitations.id', '=', id)
      .executeTakeFirstOrThrow();
    return toAdminInvitation(row, config.portalUrl);
  });
}

function toAdminInvitation(
  row: {
    id: string;
    tenant: string;
    email: string;
    code: string;
    language: string;
    created_at: Date;
    revoked_at: Date | null;
    code_status: AdminInvitation['codeStatus'];
  },
  portalUrl: string,
): AdminInvitation {
  return {
    id: row.id,
    tenant: row.tenant,
    email: row.email,
    code: row.code,
    codeStatus: row.code_status,
    language: row.language,
    createdAt: row.created_at.toISOString(),
    revokedAt: row.revoked_at?.toISOString() ?? null,
    registerUrl: invitationLink(portalUrl, {
      code: row.code,
      email: row.email,
      inviteId: row.id,
      subdomain: row.tenant,
    }),
  };
}
