import { randomUUID } from 'node:crypto';
import type { Kysely } from '@concierge/database';
import type { ServerTables } from '../db/schema';

// The invitees' requests for a new invitation (issue 30): recorded from the register page of a
// withdrawn or expired invitation (registration/), listed and settled by the office (admin/).

/**
 * Records a request for a new invitation in place of `invitationId`, once: a second request for the
 * same invitation finds the first one (the unique index) and changes nothing. True when this call
 * recorded it.
 */
export async function recordInvitationRequest(
  trx: Kysely<ServerTables>,
  request: { tenant: string; email: string; invitationId: string; at: Date },
): Promise<boolean> {
  const recorded = await trx
    .insertInto('invitation_requests')
    .values({
      id: randomUUID(),
      tenant: request.tenant,
      email: request.email,
      invitation_id: request.invitationId,
      created_at: request.at,
    })
    .onConflict((conflict) => conflict.column('invitation_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return recorded !== undefined;
}

/** A new invitation went to this e-mail of the tenant: whatever it asked for is answered. */
export async function settleInvitationRequests(
  trx: Kysely<ServerTables>,
  person: { tenant: string; email: string },
  at: Date,
): Promise<void> {
  await trx
    .updateTable('invitation_requests')
    .set({ handled_at: at })
    .where('tenant', '=', person.tenant)
    .where('email', '=', person.email)
    .where('handled_at', 'is', null)
    .execute();
}
