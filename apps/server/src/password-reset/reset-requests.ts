import { createHash } from 'node:crypto';
import type { Kysely } from '@concierge/database';
import type { ServerTables } from '../db/schema';

/**
 * How long the server remembers which e-mail a reset was started for. Longer than any reset link
 * lives at the provider (the embedded one: an hour; cidaas: configurable, at most a day).
 */
export const RESET_REQUEST_RETENTION_DAYS = 7;

/** Only the hash is stored: the request id is half of what completes a reset. */
function hashRequestId(rprq: string): string {
  return createHash('sha256').update(rprq, 'utf8').digest('hex');
}

/** Remembers the account (normalised e-mail) of the reset request id the provider answered. */
export async function recordResetRequest(db: Kysely<ServerTables>, rprq: string, email: string) {
  await db
    .insertInto('password_reset_requests')
    .values({ rprq_hash: hashRequestId(rprq), email, created_at: new Date() })
    .onConflict((conflict) => conflict.column('rprq_hash').doNothing())
    .execute();
}

/** The e-mail the reset request was started for, when this server started it. */
export async function emailOfResetRequest(
  db: Kysely<ServerTables>,
  rprq: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('password_reset_requests')
    .select('email')
    .where('rprq_hash', '=', hashRequestId(rprq))
    .executeTakeFirst();
  return row?.email;
}

/** An accept of this link had an unknown outcome: a retry that finds the link used is its success. */
export async function markAcceptUnknown(db: Kysely<ServerTables>, rprq: string): Promise<void> {
  await db
    .updateTable('password_reset_requests')
    .set({ accept_unknown_at: new Date() })
    .where('rprq_hash', '=', hashRequestId(rprq))
    .execute();
}

export async function wasAcceptUnknown(db: Kysely<ServerTables>, rprq: string): Promise<boolean> {
  const row = await db
    .selectFrom('password_reset_requests')
    .select('accept_unknown_at')
    .where('rprq_hash', '=', hashRequestId(rprq))
    .executeTakeFirst();
  return Boolean(row?.accept_unknown_at);
}

/** Housekeeping: forgets requests whose links are long expired. */
export async function pruneResetRequests(
  db: Kysely<ServerTables>,
  olderThanDays = RESET_REQUEST_RETENTION_DAYS,
) {
  await db
    .deleteFrom('password_reset_requests')
    .where('created_at', '<', new Date(Date.now() - olderThanDays * 24 * 3600 * 1000))
    .execute();
}
