import { randomUUID } from 'node:crypto';
import type { Kysely } from '@concierge/database';
import type { LockState, ServerTables } from '../db/schema';

/**
 * An account's protection as a test needs it: `failures` failed sign-ins through `tenant` (a second
 * apart, ending now), and a lock in the given state.
 */
export async function seedAccountProtection(
  db: Kysely<ServerTables>,
  email: string,
  seed: { failures?: number; tenant?: string; lock?: LockState; sub?: string; isOurLock?: boolean },
): Promise<void> {
  const now = Date.now();
  const lock = seed.lock ?? 'none';
  await db
    .insertInto('account_protection')
    .values({
      email,
      sub: seed.sub ?? null,
      counted_since: new Date(0),
      lock_state: lock,
      lock_requested_at: lock === 'none' ? null : new Date(now - 1000),
      locked_at: lock === 'locked' ? new Date(now) : null,
      lock_is_ours: seed.isOurLock ?? lock === 'locked',
      lock_attempt_unknown: false,
    })
    .execute();
  const failures = seed.failures ?? 0;
  for (let index = 0; index < failures; index += 1) {
    await db
      .insertInto('account_failures')
      .values({
        event_key: randomUUID(),
        email,
        tenant: seed.tenant ?? 'demo',
        occurred_at: new Date(now - (failures - index) * 1000),
      })
      .execute();
  }
}
