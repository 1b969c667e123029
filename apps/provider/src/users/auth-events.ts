import { createHmac } from 'node:crypto';
import { normaliseEmail } from '@concierge/contracts';
import type { FastifyBaseLogger } from 'fastify';

/**
 * How a sign-in is named in the log without naming the person: HMAC-SHA256 of the normalised e-mail
 * under the log hash key (PROVIDER_LOG_HASH_KEY), its first 16 hex characters. Enough to follow one
 * account's attempts, never the e-mail itself; and keyed, so that nobody without the key can find an
 * address by hashing candidates (a plain sha256 could be).
 */
export function emailHashOf(email: string, key: string): string {
  return createHmac('sha256', key).update(normaliseEmail(email)).digest('hex').slice(0, 16);
}

export type AuthOutcome = 'success' | 'failure' | 'locked';

/**
 * Why a sign-in failed: the answer it got, or the limit that answered it without checking the
 * password (users/login-limits.ts).
 */
export type AuthFailureReason =
  | 'invalid_username_password'
  | 'email_not_verified'
  | 'access_denied'
  | 'ip_limit'
  | 'request_limit';

export interface AuthEvent {
  outcome: AuthOutcome;
  reason?: AuthFailureReason;
  clientId: string;
  /** The e-mail as typed; only its hash is logged. */
  email: string;
  ip: string;
}

/**
 * One log line per sign-in success, failure and lock; never the e-mail, never the password. `hashKey`
 * keys the e-mail's hash (emailHashOf).
 */
export function logAuthEvent(log: FastifyBaseLogger, hashKey: string, event: AuthEvent): void {
  const { outcome, reason, clientId, ip } = event;
  log.info(
    {
      event: 'auth',
      outcome,
      ...(reason ? { reason } : {}),
      clientId,
      emailHash: emailHashOf(event.email, hashKey),
      ip,
    },
    `sign-in ${outcome}`,
  );
}
