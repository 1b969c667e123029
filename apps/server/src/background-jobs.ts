import { loggableError } from '@concierge/database';
import type { FastifyBaseLogger } from 'fastify';
import { applyRequestedLocks } from './accounts/protection/lock-applier';
import type { MailTransport } from './mail/mail-transport';
import { MailOutboxWorker } from './outbox/outbox-worker';
import {
  RECONCILE_AFTER_SECONDS,
  type ReconcileDeps,
  type ReconcileResult,
  reconcilePendingRegistrations,
} from './registration/reconcile-pending';

const OUTBOX_INTERVAL_MS = 2000;
const RECONCILE_INTERVAL_MS = 30_000;
// A lock whose first try failed is tried again soon: until it lands, the right password signs in.
const LOCK_RETRY_INTERVAL_MS = 5000;

/**
 * The server's work that no request waits for: sending the outbox, settling pending registrations
 * and applying account locks whose first try failed.
 */
export interface BackgroundJobs {
  outbox: MailOutboxWorker;
  reconcile(olderThanSeconds?: number): Promise<ReconcileResult>;
  /** Polls both from now on; every instance may, both are safe to run in parallel. */
  start(): void;
  stop(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    backgroundJobs: BackgroundJobs;
  }
}

export function createBackgroundJobs(
  deps: Omit<ReconcileDeps, 'log'> & { mailTransport: MailTransport; log: FastifyBaseLogger },
): BackgroundJobs {
  const log = deps.log.child({ job: 'background' });
  const outbox = new MailOutboxWorker({ db: deps.db, transport: deps.mailTransport, log });
  let timer: NodeJS.Timeout | undefined;
  let lockTimer: NodeJS.Timeout | undefined;
  let applyingLocks: Promise<unknown> | undefined;
  let reconciling: Promise<ReconcileResult> | undefined;
  const reconcile = (olderThanSeconds = RECONCILE_AFTER_SECONDS) => {
    // A slow run is joined, not overtaken by the next one.
    reconciling ??= reconcilePendingRegistrations({ ...deps, log }, { olderThanSeconds }).finally(() => {
      reconciling = undefined;
    });
    return reconciling;
  };
  return {
    outbox,
    reconcile,
    start() {
      if (timer) return;
      outbox.start(OUTBOX_INTERVAL_MS);
      timer = setInterval(() => {
        reconcile().catch((error: unknown) =>
          log.warn({ err: loggableError(error) }, 'reconciling registrations failed'),
        );
      }, RECONCILE_INTERVAL_MS);
      timer.unref();
      // A lock whose provider call failed when it was asked for (accounts/protection/lock-applier.ts).
      lockTimer = setInterval(() => {
        applyingLocks ??= applyRequestedLocks({ db: deps.db, provider: deps.provider, log })
          .catch((error: unknown) => log.warn({ err: loggableError(error) }, 'applying account locks failed'))
          .finally(() => {
            applyingLocks = undefined;
          });
      }, LOCK_RETRY_INTERVAL_MS);
      lockTimer.unref();
    },
    async stop() {
      clearInterval(timer);
      clearInterval(lockTimer);
      timer = undefined;
      lockTimer = undefined;
      await outbox.stop();
      await reconciling?.catch(() => undefined);
      await applyingLocks;
    },
  };
}
