import { type Kysely, loggableError } from '@concierge/database';
import type { FastifyBaseLogger } from 'fastify';
import { pruneAccountProtection } from './accounts/protection/account-row';
import type { ServerTables } from './db/schema';
import { pruneRateLimits } from './http/rate-limit';
import { pruneResetRequests } from './password-reset/reset-requests';
import { pruneSignInRequests } from './tenants/sign-in-requests';

const HOUSEKEEPING_INTERVAL_MS = 5 * 60 * 1000;

/**
 * Drops what has served its purpose: old rate-limit windows, event ids, failures that no longer
 * count, reset and sign-in requests.
 */
export async function runHousekeeping(db: Kysely<ServerTables>): Promise<void> {
  await pruneRateLimits(db);
  await pruneAccountProtection(db);
  await pruneResetRequests(db);
  await pruneSignInRequests(db);
}

/**
 * Runs the housekeeping now and every few minutes; every instance may run it, since deleting what is
 * old is the same whoever does it. Returns a stop function that waits for a run in progress.
 */
export function startHousekeeping(
  db: Kysely<ServerTables>,
  log: FastifyBaseLogger,
  intervalMs = HOUSEKEEPING_INTERVAL_MS,
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const tick = () => {
    // A slow run is not overtaken by the next one.
    running ??= runHousekeeping(db)
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
