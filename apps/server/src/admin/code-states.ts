import type { CodeFigures, CodeState } from '@concierge/contracts';
import { type Kysely, sql } from '@concierge/database';
import type { RegistrationCodeStatus, ServerTables } from '../db/schema';

// What became of a code after its letter went out, from Concierge's own records only: the provider
// is never asked (a batch of 2000 codes would be 2000 calls), and every fact below is a subquery of
// the one statement that reads the codes.
//
// activated: Concierge knows an account is active when
//   - its activation link was used (activations.used_at, for the code's sub and e-mail: the link
//     proved the mailbox, activation/activate-account.ts), or
//   - since the code was claimed, the account proved active (account_protection.seen_active_at): a
//     successful sign-in or the provider's ACCOUNT_ACTIVATED (accounts/protection/sign-in-events.ts),
//     or a completed password reset, which activates an account never activated (spec §4,
//     reset-unlock.ts). The office's unlock does not count: it activates nothing.
// locked: the account's lock is asked for or set (account_protection.lock_state not none): from
//   the request on the sign-in page tells the tenant the account is locked
//   (accounts/protection/failed-login-counter.ts), so the office hears of it from then on.
// expired: unused, and past its expiry (accounts/registration-codes.ts isExpiredCode).

const isUsed = sql<boolean>`registration_codes.status = 'used'`;

const activationLinkUsed = sql<boolean>`exists (
  select 1 from activations
  where activations.email = registration_codes.claimed_email
    and activations.sub = registration_codes.sub
    and activations.used_at is not null)`;

const seenActiveSinceClaim = sql<boolean>`exists (
  select 1 from account_protection
  where account_protection.email = registration_codes.claimed_email
    and account_protection.seen_active_at > registration_codes.claimed_at)`;

const accountLocked = sql<boolean>`exists (
  select 1 from account_protection
  where account_protection.email = registration_codes.claimed_email
    and account_protection.lock_state <> 'none')`;

/** The flags a code's state is made of, as columns of a query over registration_codes (at `at`). */
export function codeFactColumns(at: Date) {
  return [
    sql<boolean>`(registration_codes.status = 'unused'
      and coalesce(registration_codes.expires_at <= ${at}, false))`.as('is_expired'),
    sql<boolean>`(${isUsed} and (${activationLinkUsed} or ${seenActiveSinceClaim}))`.as('is_activated'),
    sql<boolean>`(${isUsed} and ${accountLocked})`.as('is_locked'),
  ] as const;
}

export interface CodeFacts {
  status: RegistrationCodeStatus;
  is_expired: boolean;
  is_activated: boolean;
  is_locked: boolean;
}

/** One state per code: what the office acts on first (a locked account) before how far it got. */
export function stateOf(code: CodeFacts): CodeState {
  if (code.is_expired) return 'expired';
  if (code.status !== 'used') return code.status;
  if (code.is_locked) return 'locked';
  return code.is_activated ? 'activated' : 'used';
}

/**
 * The figures of the codes of each of `keys` (batch ids or tenants), in one statement; a key without
 * codes is missing from the map (toFigures reads it as none).
 */
export async function countFigures(
  db: Kysely<ServerTables>,
  by: 'batch_id' | 'tenant',
  keys: readonly string[],
  at: Date,
): Promise<Map<string, CodeFigures>> {
  if (keys.length === 0) return new Map();
  const facts = db
    .selectFrom('registration_codes')
    .select([sql.ref<string>(`registration_codes.${by}`).as('key'), 'status', ...codeFactColumns(at)])
    .where(by, 'in', keys);
  const rows = await db
    .selectFrom(facts.as('facts'))
    .select([
      'facts.key',
      sql<string>`count(*)`.as('codes'),
      sql<string>`count(*) filter (where facts.status = 'unused' and not facts.is_expired)`.as('unused'),
      sql<string>`count(*) filter (where facts.status = 'pending')`.as('pending'),
      sql<string>`count(*) filter (where facts.status = 'used')`.as('used'),
      sql<string>`count(*) filter (where facts.is_activated)`.as('activated'),
      sql<string>`count(*) filter (where facts.is_locked)`.as('locked'),
      sql<string>`count(*) filter (where facts.status = 'revoked')`.as('revoked'),
      sql<string>`count(*) filter (where facts.is_expired)`.as('expired'),
    ])
    .groupBy('facts.key')
    .execute();
  return new Map(rows.map((row) => [row.key, toFigures(row)]));
}

/** Figures from counts (pg returns count(*) as a string); none at all where nothing was counted. */
export function toFigures(row: Partial<Record<keyof CodeFigures, string | number>> | undefined): CodeFigures {
  const count = (key: keyof CodeFigures) => Number(row?.[key] ?? 0);
  return {
    codes: count('codes'),
    unused: count('unused'),
    pending: count('pending'),
    used: count('used'),
    activated: count('activated'),
    locked: count('locked'),
    revoked: count('revoked'),
    expired: count('expired'),
  };
}
