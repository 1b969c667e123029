import type { AdminInvitationResend } from '@concierge/contracts';
import { FALLBACK_LANGUAGE, isLanguage } from '@concierge/contracts';
import { findCodeHeldByEmail } from '../accounts/registration-codes';
import { AppError } from '../http/errors';
import { type AdminActor, requireTenant } from './admin-auth';
import { takeAdminQuota } from './admin-quotas';
import { recordAdminChange } from './audit-log';
import { issueInvitation, lockInvitee, voidOpenInvitations } from './invitation-issue';
import { adminInvitationById } from './invitation-rows';
import { type InvitationDeps, lockedInvitation, refuseRegisteredWith } from './invitations-admin';

/**
 * Issue 30: sends an invitation again as a new one — a new id, code and expiry for the same tenant,
 * e-mail and language — and withdraws the old one with its code, so that its link no longer
 * registers (it says the invitation was withdrawn). One transaction with the quota, the e-mail and
 * the audit row: a refusal (unknown, registered with, the address registered since, the quota)
 * changes nothing. Works for an open, a withdrawn and an expired invitation alike; the invitee's
 * request for a new one is answered by it.
 */
export async function resendInvitation(
  deps: InvitationDeps,
  id: string,
  actor: AdminActor,
): Promise<AdminInvitationResend> {
  const { db, registry, config } = deps;
  return db.transaction().execute(async (trx) => {
    const now = new Date();
    const named = await trx
      .selectFrom('invitations')
      .select(['tenant', 'email'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!named) throw new AppError(404, 'invitation_not_found', 'No invitation with this id exists.');
    requireTenant(actor, named.tenant);
    // The person first, then the row, in the order creating an invitation takes them.
    await lockInvitee(trx, named);
    const previous = await lockedInvitation(trx, id);
    await refuseRegisteredWith(trx, previous.code);
    const entry = registry.bySubdomain(previous.tenant);
    if (!entry) {
      throw new AppError(400, 'unknown_tenant', `No tenant with the subdomain "${previous.tenant}".`);
    }
    if (await findCodeHeldByEmail(trx, previous.email)) {
      throw new AppError(409, 'email_already_registered_db', 'This e-mail address is already registered.');
    }
    // Inside the transaction and after the refusals: a call that changes nothing uses none of it.
    await takeAdminQuota(trx, config.adminQuotas, {
      what: 'invitations',
      tenant: entry.subdomain,
      amount: 1,
    });
    // The re-sent one among them, unless it was withdrawn already; any other is a newer open one.
    const voided = await voidOpenInvitations(trx, { tenant: entry.subdomain, email: previous.email }, now);
    const invitation = await issueInvitation(
      trx,
      deps,
      {
        entry,
        email: previous.email,
        language: isLanguage(previous.language) ? previous.language : FALLBACK_LANGUAGE,
      },
      now,
    );
    for (const other of voided.filter((voidedId) => voidedId !== id)) {
      await recordAdminChange(trx, actor, {
        action: 'invitation.revoke',
        tenant: entry.subdomain,
        target: other,
        outcome: 'changed',
      });
    }
    await recordAdminChange(trx, actor, {
      action: 'invitation.resend',
      tenant: entry.subdomain,
      target: id,
      outcome: 'changed',
    });
    return { invitation, previous: await adminInvitationById(trx, id, config.portalUrl) };
  });
}
