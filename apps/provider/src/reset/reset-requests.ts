import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { ProviderDb } from '../db/schema';

/** At most this many reset e-mails per account and window; more are answered alike and not sent. */
export const RESET_RATE_LIMIT = { maxRequests: 5, windowMs: 15 * 60 * 1000 } as const;

export function newResetIds(): { rprq: string; exchangeId: string } {
  return { rprq: randomUUID(), exchangeId: randomBytes(32).toString('base64url') };
}

/** Only the hash is stored: whoever reads the table cannot complete a reset with it. */
export function hashExchangeId(exchangeId: string): string {
  return createHash('sha256').update(exchangeId).digest('hex');
}

/** Keeps the table small; expired requests are already useless. */
export async function deleteOldResetRequests(db: ProviderDb, now = new Date()): Promise<number> {
  const result = await db
    .deleteFrom('password_reset_requests')
    .where('expires_at', '<', new Date(now.getTime() - 24 * 60 * 60 * 1000))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
