import { FALLBACK_LANGUAGE, normaliseEmail, normaliseRegistrationCode, UUID_V4 } from '@concierge/contracts';
import type { Kysely } from '@concierge/database';
import { recordInvitationRequest } from '../accounts/invitation-requests';
import {
  invitationEnding,
  invitationsWithCodes,
  invitationsWithState,
  openAt,
} from '../accounts/invitations';
import { findCodeHeldByEmail } from '../accounts/registration-codes';
import type { ServerConfig } from '../config';
import type { ServerTables } from '../db/schema';
import { renderInvitationRequestNotice } from '../mail/invitation-request-notice';
import { mailBrand } from '../mail/mail-brand';
import { enqueueMail } from '../outbox/mail-outbox';
import type { TenantRegistry } from '../tenants/tenant-registry';

export interface NewInvitationRequestDeps {
  db: Kysely<ServerTables>;
  registry: TenantRegistry;
  config: Pick<ServerConfig, 'portalUrl'>;
}

/** The parameters of an invitation's link, as the page sends them on. */
export interface InvitationLinkParameters {
  inviteId: string;
  code: string;
  email: string;
}

/**
 * Issue 30: the invitee of a withdrawn or expired invitation asks the property manager for a new
 * one from its register page. Acts only when the link's three parameters name one invitation that
 * has ended this way and its invitee has neither a newer open invitation of the tenant (the office
 * has sent one already) nor an account: then the request is recorded, once per invitation, and the
 * office — when the registry has its e-mail — gets a notice in its language, both in one
 * transaction. Anything else does nothing. The caller answers the same in every case, so the call
 * tells nobody anything about an invitation (the link's holder learns nothing new either: its page
 * says on arrival whether it was withdrawn or has expired).
 */
export async function requestNewInvitation(
  deps: NewInvitationRequestDeps,
  link: InvitationLinkParameters,
): Promise<void> {
  const inviteId = link.inviteId.trim().toLowerCase();
  const code = normaliseRegistrationCode(link.code);
  const email = normaliseEmail(link.email);
  if (!UUID_V4.test(inviteId) || code === undefined || email === '') return;
  const { db } = deps;
  const now = new Date();
  await db.transaction().execute(async (trx) => {
    const invitation = await invitationsWithState(trx)
      .where('invitations.id', '=', inviteId)
      .where('invitations.code', '=', code)
      .where('invitations.email', '=', email)
      .executeTakeFirst();
    if (!invitation || invitationEnding(invitation, now) === undefined) return;
    const person = { tenant: invitation.tenant, email: invitation.email };
    if (await hasOpenInvitation(trx, person, now)) return;
    if (await findCodeHeldByEmail(trx, person.email)) return;
    const isRecorded = await recordInvitationRequest(trx, {
      ...person,
      invitationId: invitation.id,
      at: now,
    });
    if (isRecorded) await noticeToOffice(trx, deps, { ...person, invitationId: invitation.id });
  });
}

/** An invitation of the tenant for this e-mail that still registers. */
async function hasOpenInvitation(
  trx: Kysely<ServerTables>,
  person: { tenant: string; email: string },
  at: Date,
): Promise<boolean> {
  const open = await openAt(invitationsWithCodes(trx), at)
    .select('invitations.id')
    .where('invitations.tenant', '=', person.tenant)
    .where('invitations.email', '=', person.email)
    .executeTakeFirst();
  return open !== undefined;
}

/** The office's notice, when the registry names the tenant's e-mail; none otherwise (it lists them). */
async function noticeToOffice(
  trx: Kysely<ServerTables>,
  deps: NewInvitationRequestDeps,
  request: { tenant: string; email: string; invitationId: string },
): Promise<void> {
  const entry = deps.registry.bySubdomain(request.tenant);
  const office = entry?.contact?.email;
  if (!entry || !office) return;
  await enqueueMail(
    trx,
    renderInvitationRequestNotice({
      to: office,
      language: entry.language ?? FALLBACK_LANGUAGE,
      brand: mailBrand(deps.registry, entry, deps.config.portalUrl),
      inviteeEmail: request.email,
      invitationId: request.invitationId,
      tenant: request.tenant,
    }),
  );
}
