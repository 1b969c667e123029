import { FAILED_LOGINS_BEFORE_LOCK } from '@concierge/contracts';
import { type Kysely, sql } from '@concierge/database';
import type { ServerTables } from '../db/schema';

/** spec §4, §9: the third failure locks the account; the counter says at least this much then. */
export const LOCKED_COUNTER = FAILED_LOGINS_BEFORE_LOCK;

/**
 * The failed-login count the login page shows for one tenant and e-mail; 0 when nothing is known,
 * so that an unknown e-mail looks exactly like a known one without failures. While Concierge's lock
 * holds (accounts/account-locks.ts) it is at least LOCKED_COUNTER in every tenant: a locked
 * account never shows attempts left, also after a reset that cleared the count but not the lock.
 */
export async function readFailedLoginCounter(
  db: Kysely<ServerTables>,
  tenant: string,
  email: string,
): Promise<number> {
  const row = await db
    .selectFrom('failed_login_counters')
    .select('counter')
    .where('tenant', '=', tenant)
    .where('email', '=', email)
    .executeTakeFirst();
  const counter = row?.counter ?? 0;
  if (counter >= LOCKED_COUNTER) return counter;
  const lock = await db
    .selectFrom('account_locks')
    .select('email')
    .where('email', '=', email)
    .executeTakeFirst();
  return lock ? LOCKED_COUNTER : counter;
}

/**
 * One more failure for the tenant and e-mail; one atomic upsert, so parallel events all count.
 * Returns the count after it.
 */
export async function countFailedLogin(
  db: Kysely<ServerTables>,
  tenant: string,
  email: string,
): Promise<number> {
  const row = await db
    .insertInto('failed_login_counters')
    .values({ tenant, email, counter: 1, updated_at: new Date() })
    .onConflict((conflict) =>
      conflict.columns(['tenant', 'email']).doUpdateSet({
        counter: sql`failed_login_counters.counter + 1`,
        updated_at: new Date(),
      }),
    )
    .returning('counter')
    .executeTakeFirstOrThrow();
  return row.counter;
}

/**
 * The provider locked the account. Its lock holds for every client, so the counter says "locked"
 * in every tenant that has one, and in the event's tenant in any case.
 */
export async function markAccountLocked(db: Kysely<ServerTables>, tenant: string, email: string) {
  const now = new Date();
  await db
    .insertInto('failed_login_counters')
    .values({ tenant, email, counter: LOCKED_COUNTER, updated_at: now })
    .onConflict((conflict) =>
      conflict.columns(['tenant', 'email']).doUpdateSet({
        counter: sql`greatest(failed_login_counters.counter, ${LOCKED_COUNTER})`,
        updated_at: now,
      }),
    )
    .execute();
  await db
    .updateTable('failed_login_counters')
    .set({ counter: LOCKED_COUNTER, updated_at: now })
    .where('email', '=', email)
    .where('counter', '<', LOCKED_COUNTER)
    .execute();
}

/**
 * Back to 0 in every tenant: the provider keeps one count per account, and a sign-in, an activation
 * or a new password ends it for all clients at once.
 */
export async function clearFailedLogins(db: Kysely<ServerTables>, email: string) {
  await db
    .updateTable('failed_login_counters')
    .set({ counter: 0, updated_at: new Date() })
    .where('email', '=', email)
    .where('counter', '<>', 0)
    .execute();
}
