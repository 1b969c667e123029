import { sql } from '@concierge/database';
import { AppMetrics, type RouteOf, routePattern } from '@concierge/observability';
import { Counter, Gauge } from 'prom-client';
import type { OutboxName, ProviderDb } from '../db/schema';
import { CIDAAS_ROUTES } from '../oidc/configuration';
import type { AuthFailureReason, AuthOutcome } from '../users/auth-events';

const OUTBOXES: readonly OutboxName[] = ['webhook_outbox', 'mail_outbox'];

/**
 * The embedded provider's Prometheus metrics (docs/operations.md, "Metrics"): what every app has
 * (AppMetrics: its own registry, the process, `provider_http_request_duration_seconds`, the pool),
 * and the provider's sign-ins and outboxes, read from the database at each scrape.
 * createProviderApp sets `log`, for a failed read of the database.
 */
export class ProviderMetrics extends AppMetrics {
  readonly signIns = new Counter({
    name: 'provider_sign_ins_total',
    help:
      'Password sign-ins by outcome (success, failure, locked) and reason of a failure ' +
      '(invalid_username_password, email_not_verified, access_denied; ip_limit and request_limit: refused by a limit)',
    labelNames: ['outcome', 'reason'] as const,
    registers: [this.registry],
  });

  constructor() {
    super('provider');
  }

  /** One sign-in, as logged (users/auth-events.ts). */
  countSignIn(outcome: AuthOutcome, reason?: AuthFailureReason): void {
    this.signIns.inc({ outcome, reason: reason ?? 'none' });
  }

  /** Gauges read from the database and its pool at every scrape. */
  watchDatabase(db: ProviderDb): void {
    // One query for the outbox gauges per scrape: each one's collect waits for the same read.
    let outboxRead: Promise<void> | undefined;
    const readOutboxes = () => {
      outboxRead ??= Promise.all(OUTBOXES.map((outbox) => readOutbox(outbox)))
        .then(() => undefined)
        .finally(() => {
          outboxRead = undefined;
        });
      return outboxRead;
    };
    const gauge = (name: string, help: string) =>
      new Gauge({
        name,
        help,
        labelNames: ['outbox'] as const,
        registers: [this.registry],
        collect: readOutboxes,
      });
    const pending = gauge(
      'provider_outbox_pending',
      'Messages waiting to be delivered (or retried), by outbox',
    );
    const oldest = gauge(
      'provider_outbox_oldest_pending_age_seconds',
      'Age of the oldest message waiting, by outbox; 0 when none waits',
    );
    const undeliverable = gauge(
      'provider_outbox_undeliverable',
      'Messages the outbox gave up on (kept a week), by outbox',
    );
    const readOutbox = async (outbox: OutboxName) => {
      try {
        const row = await db
          .selectFrom(outbox)
          .select([
            sql<string>`count(*) filter (where given_up_at is null)`.as('pending'),
            sql<string>`count(*) filter (where given_up_at is not null)`.as('undeliverable'),
            sql<Date | null>`min(created_at) filter (where given_up_at is null)`.as('oldest'),
          ])
          .where('delivered_at', 'is', null)
          .executeTakeFirstOrThrow();
        pending.set({ outbox }, Number(row.pending));
        undeliverable.set({ outbox }, Number(row.undeliverable));
        const oldestMs = row.oldest ? new Date(row.oldest).getTime() : Date.now();
        oldest.set({ outbox }, Math.max(0, (Date.now() - oldestMs) / 1000));
      } catch (error) {
        // A scrape must not fail with the database: these read NaN, everything else is still there.
        for (const each of [pending, oldest, undeliverable]) each.set({ outbox }, Number.NaN);
        this.log?.debug({ name: (error as Error).name }, 'metrics: the outbox could not be read');
      }
    };

    this.watchPool(db);
  }
}

const OIDC_PATHS: readonly string[] = Object.values(CIDAAS_ROUTES);

/**
 * The route a request is counted and logged under. Everything oidc-provider answers comes through one
 * catch-all route (`/*`): its own endpoints are named by their path (a fixed list), anything else
 * stays `/*`, so that made-up paths cannot make new series; other requests by their route pattern.
 */
export const routeOf: RouteOf = (pattern, url) => {
  if (pattern !== '/*') return routePattern(pattern, url);
  const path = url.split('?', 1)[0] ?? '';
  if (OIDC_PATHS.includes(path)) return path;
  return OIDC_PATHS.find((known) => path.startsWith(`${known}/`))?.concat('/*') ?? '/*';
};

declare module 'fastify' {
  interface FastifyInstance {
    /** The provider's metrics (createProviderApp); /metrics serves their registry on its own port. */
    metrics: ProviderMetrics;
  }
}
