import { randomUUID } from 'node:crypto';
import type { AdminInvitation, Language } from '@concierge/contracts';
import { type Kysely, sql } from '@concierge/database';
import { settleInvitationRequests } from '../accounts/invitation-requests';
import { invitationsWithCodes } from '../accounts/invitations';
import type { ServerConfig } from '../config';
import type { ServerTables } from '../db/schema';
import { renderInvitationMail } from '../mail/invitation-mail';
import { invitationLink } from '../mail/links';
import { mailBrand } from '../mail/mail-brand';
import { enqueueMail } from '../outbox/mail-outbox';
import type { TenantEntry } from '../tenants/registry-file';
import type { TenantRegistry } from '../tenants/tenant-registry';
import { invitationExpiry, lastValidDay } from './invitation-expiry';

// What making and voiding an invitation take, inside the caller's transaction: creating one and
// re-sending one (invitations-admin.ts, invitation-resend.ts) both void the person's open one and
// issue a new one, so that a person holds at most one open invitation of a tenant (issue 30).

export interface InvitationIssueDeps {
  registry: TenantRegistry;
  config: Pick<ServerConfig, 'portalUrl' | 'invitationValidityDays'>;
}

/** One person of one tenant: whom an invitation is for. */
export interface Invitee {
  tenant: string;
  /** Normalised (trimmed, lower-case). */
  email: string;
}

/**
 * Holds the person's invitations for the rest of the transaction: two invitations made for one
 * address at the same moment would each find no open one to void, and both would stay open.
 */
export async function lockInvitee(trx: Kysely<ServerTables>, invitee: Invitee): Promise<void> {
  const key = `invitation:${invitee.tenant}:${invitee.email}`;
  await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
}

/**
 * Withdraws an invitation: its row, and its code if still unused (a code being registered or used
 * stays as it is: the caller refuses those).
 */
export async function withdrawInvitation(
  trx: Kysely<ServerTables>,
  invitation: { id: string; code: string },
  at: Date,
): Promise<void> {
  await trx.updateTable('invitations').set({ revoked_at: at }).where('id', '=', invitation.id).execute();
  await trx
    .updateTable('registration_codes')
    .set({ status: 'revoked', revoked_at: at })
    .where('code', '=', invitation.code)
    .where('status', '=', 'unused')
    .execute();
}

/**
 * Voids the person's invitations nobody has registered with (open or past their date), so that the
 * one about to be issued is their only one. Returns the ids voided, for the audit log.
 */
export async function voidOpenInvitations(
  trx: Kysely<ServerTables>,
  invitee: Invitee,
  at: Date,
): Promise<string[]> {
  const open = await invitationsWithCodes(trx)
    .select(['invitations.id', 'invitations.code'])
    .where('invitations.tenant', '=', invitee.tenant)
    .where('invitations.email', '=', invitee.email)
    .where('invitations.revoked_at', 'is', null)
    .where('registration_codes.status', '=', 'unused')
    .forUpdate()
    .execute();
  for (const invitation of open) await withdrawInvitation(trx, invitation, at);
  return open.map((invitation) => invitation.id);
}

/**
 * A new code bound to the e-mail, valid until INVITATION_VALIDITY_DAYS are over, its invitation and
 * its e-mail in the outbox (which names the last valid day); the person's requests for a new
 * invitation are answered by it. The caller voids the person's open invitation first and audits.
 */
export async function issueInvitation(
  trx: Kysely<ServerTables>,
  deps: InvitationIssueDeps,
  input: { entry: TenantEntry; email: string; language: Language },
  at: Date,
): Promise<AdminInvitation> {
  const { registry, config } = deps;
  const { entry, email, language } = input;
  const id = randomUUID();
  const code = randomUUID();
  const expiresAt = invitationExpiry(at, config.invitationValidityDays);
  const link = invitationLink(config.portalUrl, { code, email, inviteId: id, subdomain: entry.subdomain });
  await trx
    .insertInto('registration_codes')
    .values({ code, tenant: entry.subdomain, status: 'unused', created_at: at, expires_at: expiresAt })
    .execute();
  await trx
    .insertInto('invitations')
    .values({ id, tenant: entry.subdomain, email, code, language, created_at: at })
    .execute();
  await enqueueMail(
    trx,
    renderInvitationMail({
      to: email,
      language,
      brand: mailBrand(registry, entry, config.portalUrl),
      code,
      link,
      lastValidDay: lastValidDay(expiresAt),
    }),
  );
  await settleInvitationRequests(trx, { tenant: entry.subdomain, email }, at);
  return {
    id,
    tenant: entry.subdomain,
    email,
    code,
    codeStatus: 'unused',
    language,
    createdAt: at.toISOString(),
    expiresAt: expiresAt.toISOString(),
    revokedAt: null,
    registerUrl: link,
  };
}
