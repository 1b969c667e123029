import type { Kysely } from '@concierge/database';
import type { ServerTables } from '../db/schema';

/**
 * The invitations joined with their codes: an invitation is registered with, and expires, through
 * its code (issue 30). Read so by the admin API (admin/) and by the invitee's pages (registration/).
 */
export function invitationsWithCodes(db: Kysely<ServerTables>) {
  return db
    .selectFrom('invitations')
    .innerJoin('registration_codes', 'registration_codes.code', 'invitations.code');
}
