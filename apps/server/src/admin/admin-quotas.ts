import type { Kysely } from '@concierge/database';
import type { ServerConfig } from '../config';
import type { ServerTables } from '../db/schema';
import { AppError } from '../http/errors';
import { consumeQuota } from '../http/rate-limit';

const HOUR_SECONDS = 3600;

const WHAT = {
  codes: { words: 'registration codes', setting: 'ADMIN_CODES_PER_TENANT_PER_HOUR' },
  invitations: { words: 'invitations', setting: 'ADMIN_INVITATIONS_PER_TENANT_PER_HOUR' },
} as const;

/**
 * The admin API's quotas: at most so many codes and invitations per tenant in a clock hour, counted
 * in the database across every instance (issue 26: 50,000 codes were made in 16 s). A request that
 * would pass the quota makes nothing and is answered 429 with what is left and when it renews (also
 * as Retry-After); the CLI prints that message and exits 1.
 */
export async function takeAdminQuota(
  db: Kysely<ServerTables>,
  quotas: ServerConfig['adminQuotas'],
  input: { what: keyof typeof WHAT; tenant: string; amount: number },
): Promise<void> {
  const limit = input.what === 'codes' ? quotas.codesPerTenantPerHour : quotas.invitationsPerTenantPerHour;
  const outcome = await consumeQuota(
    db,
    { key: `admin-quota:${input.what}:${input.tenant}`, limit, windowSeconds: HOUR_SECONDS },
    input.amount,
  );
  if (outcome.isGranted) return;
  const { words, setting } = WHAT[input.what];
  const left = Math.max(0, limit - outcome.used);
  throw new AppError(
    429,
    'quota_exceeded',
    `Quota reached: at most ${limit} ${words} per tenant an hour (${setting}); ` +
      `${outcome.used} made for "${input.tenant}" this hour, ${left} left, ${input.amount} asked for. ` +
      `Nothing was made. The quota renews at ${outcome.renewsAt.toISOString()}.`,
    { retryAfterSeconds: (outcome.renewsAt.getTime() - Date.now()) / 1000 },
  );
}
