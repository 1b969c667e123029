import { type Kysely, type Selectable, sql } from '@concierge/database';
import type { RegistrationCodeStatus, RegistrationCodesTable, ServerTables } from '../db/schema';

export type RegistrationCodeRow = Selectable<RegistrationCodesTable>;

export function findRegistrationCode(
  db: Kysely<ServerTables>,
  code: string,
): Promise<RegistrationCodeRow | undefined> {
  return db.selectFrom('registration_codes').selectAll().where('code', '=', code).executeTakeFirst();
}

/** The code that registered (or is registering) this e-mail, if any: pending or used. */
export function findCodeHeldByEmail(
  db: Kysely<ServerTables>,
  email: string,
): Promise<RegistrationCodeRow | undefined> {
  return db
    .selectFrom('registration_codes')
    .selectAll()
    .where('claimed_email', '=', email)
    .where('status', 'in', ['pending', 'used'])
    .executeTakeFirst();
}

/**
 * An unused code past its expiry (issue 30: a batch's letters are valid until a date) registers no
 * one. A code claimed before its expiry is not affected: its registration completes.
 */
export function isExpiredCode(code: Pick<RegistrationCodeRow, 'status' | 'expires_at'>, at: Date): boolean {
  return code.status === 'unused' && code.expires_at !== null && code.expires_at.getTime() <= at.getTime();
}

/** Claimed; not unused (or expired) by now: read the row again to say which; the e-mail holds another. */
export type ClaimOutcome = 'claimed' | 'not_unused' | 'email_taken';

/**
 * unused → pending in ONE conditional update: of any number of parallel attempts exactly one sees
 * the row still unused, so exactly one goes on to the provider (ARCHITECTURE "Registration"). The
 * expiry is part of the same condition, so no claim passes a check made a moment before the code
 * expired. The unique index on claimed e-mails refuses a second code for the same address.
 */
export async function claimRegistrationCode(
  db: Kysely<ServerTables>,
  claim: { code: string; tenant: string; email: string; language: string; at: Date },
): Promise<ClaimOutcome> {
  try {
    const claimed = await db
      .updateTable('registration_codes')
      .set({
        status: 'pending',
        claimed_email: claim.email,
        claimed_at: claim.at,
        claimed_language: claim.language,
      })
      .where('code', '=', claim.code)
      .where('tenant', '=', claim.tenant)
      .where('status', '=', 'unused')
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', claim.at)]))
      .returning('code')
      .executeTakeFirst();
    return claimed ? 'claimed' : 'not_unused';
  } catch (error) {
    if (isUniqueViolation(error)) return 'email_taken';
    throw error;
  }
}

/**
 * pending → unused, when the provider definitely did not create the identity. Only the claim that
 * was made (same e-mail, and same claim time when given) is released, never a newer one. A code
 * whose batch was revoked while it was pending goes to revoked instead: the office withdrew it.
 */
export async function releaseRegistrationCode(
  db: Kysely<ServerTables>,
  claim: { code: string; email: string; claimedAt?: Date },
): Promise<boolean> {
  let query = db
    .updateTable('registration_codes')
    .set(({ exists, selectFrom }) => {
      const isBatchRevoked = exists(
        selectFrom('code_batches')
          .select('code_batches.id')
          .whereRef('code_batches.id', '=', 'registration_codes.batch_id')
          .where('code_batches.revoked_at', 'is not', null),
      );
      return {
        status: sql<RegistrationCodeStatus>`case when ${isBatchRevoked} then 'revoked' else 'unused' end`,
        revoked_at: sql<Date | null>`case when ${isBatchRevoked} then now() else null end`,
        claimed_email: null,
        claimed_at: null,
        claimed_language: null,
      };
    })
    .where('code', '=', claim.code)
    .where('status', '=', 'pending')
    .where('claimed_email', '=', claim.email);
  if (claim.claimedAt) query = query.where('claimed_at', '=', claim.claimedAt);
  const released = await query.returning('code').executeTakeFirst();
  return released !== undefined;
}

/** PostgreSQL's unique_violation, as pg reports it. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}
