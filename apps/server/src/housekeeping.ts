import { type Kysely, loggableError } from '@concierge/database';
import type { FastifyBaseLogger } from 'fastify';
import { pruneActivations } from './accounts/issue-activation';
import { pruneAccountProtection } from './accounts/protection/account-row';
import { pruneSurplusFailures } from './accounts/protection/prune-failures';
import { pruneAdminAudit } from './admin/audit-log';
import { pruneConsole, type SessionLifetime } from './console/console-sessions';
import type { ServerTables } from './db/schema';
import { pruneRateLimits } from './http/rate-limit';
import { pruneMailOutbox } from './outbox/mail-outbox';
import { pruneResetRequests } from './password-reset/reset-requests';
import { pruneSignInRequests } from './tenants/sign-in-requests';

const HOUSEKEEPING_INTERVAL_MS = 5 * 60 * 1000;

/**
 * Drops what has served its purpose, from every table that grows with traffic (each retention is
 * stated beside its prune):
 *
 * - rate_limits: windows ended a day ago (also the admin API's hourly quotas);
 * - processed_webhook_events: after 30 days; account_failures: those before the account's last
 *   clear, and all but each account's newest three;
 * - password_reset_requests: after 7 days; sign_in_requests: after 24 hours;
 * - mail_outbox: sent e-mails after SENT_MAIL_RETENTION_DAYS (7 by default), undeliverable ones
 *   after 30;
 * - activations: 30 days after the link expired;
 * - console_sign_ins: after 10 minutes; console_sessions: a day after they ended;
 * - admin_audit: after AUDIT_RETENTION_DAYS (400 by default): long enough to answer for a year's
 *   letters and invitations, not for ever, since a row may name an account's e-mail.
 *
 * Kept for good: registration codes and invitations (an operator's records, bounded by the admin
 * API's quotas) and account_protection (one row per e-mail ever tried: see docs/operations.md,
 * "Housekeeping and quotas").
 */
export async function runHousekeeping(
  db: Kysely<ServerTables>,
  settings: HousekeepingSettings,
): Promise<void> {
  await pruneRateLimits(db);
  await pruneAccountProtection(db);
  await pruneSurplusFailures(db);
  await pruneResetRequests(db);
  await pruneSignInRequests(db);
  await pruneMailOutbox(db, settings.sentMailRetentionDays);
  await pruneActivations(db);
  await pruneAdminAudit(db, settings.auditRetentionDays);
  if (settings.consoleSessions) await pruneConsole(db, settings.consoleSessions);
}

/** The retentions an operator sets (config.ts); the others are fixed beside their prunes. */
export interface HousekeepingSettings {
  /** Days a sent e-mail's row is kept: it names a recipient, and nothing reads it once sent. */
  sentMailRetentionDays: number;
  /** Days an admin action's audit row is kept. */
  auditRetentionDays: number;
  /** The console's session lifetimes; undefined without a console. */
  consoleSessions?: SessionLifetime;
}

/**
 * Runs the housekeeping now and every few minutes; every instance may run it, since deleting what is
 * old is the same whoever does it. Returns a stop function that waits for a run in progress.
 */
export function startHousekeeping(
  db: Kysely<ServerTables>,
  log: FastifyBaseLogger,
  settings: HousekeepingSettings,
  intervalMs = HOUSEKEEPING_INTERVAL_MS,
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const tick = () => {
    // A slow run is not overtaken by the next one.
    running ??= runHousekeeping(db, settings)
      .catch((error: unknown) => log.warn({ err: loggableError(error) }, 'housekeeping failed'))
      .finally(() => {
        running = undefined;
      });
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  // It must not keep the process alive on its own.
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
