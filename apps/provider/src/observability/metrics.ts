import { type PoolStats, poolStatsOf, sql } from '@concierge/database';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { OutboxName, ProviderDb } from '../db/schema';
import { CIDAAS_ROUTES } from '../oidc/configuration';
import type { AuthFailureReason, AuthOutcome } from '../users/auth-events';

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const OUTBOXES: readonly OutboxName[] = ['webhook_outbox', 'mail_outbox'];

/**
 * The embedded provider's Prometheus metrics (docs/operations.md, "Metrics"), in a registry of its
 * own per app instance (never prom-client's global one), so that several apps in one process — the
 * tests — keep apart. What the database holds (the outboxes) and the pool are read at each scrape.
 */
export class ProviderMetrics {
  readonly registry = new Registry();
  /** Set by createProviderApp: for a failed read of the database at a scrape. */
  log: FastifyBaseLogger | undefined;

  readonly httpRequestDuration = new Histogram({
    name: 'provider_http_request_duration_seconds',
    help: 'HTTP requests answered, by method, route pattern and status code, and how long they took',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly signIns = new Counter({
    name: 'provider_sign_ins_total',
    help:
      'Password sign-ins by outcome (success, failure, locked) and reason of a failure ' +
      '(invalid_username_password, email_not_verified, access_denied; ip_limit and request_limit: refused by a limit)',
    labelNames: ['outcome', 'reason'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
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

    const pool = (name: string, help: string, read: (stats: PoolStats) => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          const stats = poolStatsOf(db);
          if (stats) this.set(read(stats));
        },
      });
    pool('provider_db_pool_connections', 'Connections the database pool holds open', (stats) => stats.total);
    pool(
      'provider_db_pool_idle_connections',
      'Open connections of the pool not in use',
      (stats) => stats.idle,
    );
    pool(
      'provider_db_pool_waiting_requests',
      'Queries waiting for a connection of the pool',
      (stats) => stats.waiting,
    );
  }
}

const OIDC_PATHS: readonly string[] = Object.values(CIDAAS_ROUTES);

/**
 * The route pattern a request is counted under. Everything oidc-provider answers comes through one
 * catch-all route (`/*`): its own endpoints are named by their path (a fixed list), anything else
 * stays `/*`, so that made-up paths cannot make new series.
 */
export function routeOf(pattern: string | undefined, url: string): string {
  if (pattern === undefined) return 'unmatched';
  if (pattern !== '/*') return pattern;
  const path = url.split('?', 1)[0] ?? '';
  if (OIDC_PATHS.includes(path)) return path;
  return OIDC_PATHS.find((known) => path.startsWith(`${known}/`))?.concat('/*') ?? '/*';
}

/** Times every answer by its route pattern (`/useractions-srv/userexistence/:requestId`), never the URL. */
export function installHttpMetrics(app: FastifyInstance, metrics: ProviderMetrics): void {
  app.addHook('onResponse', async (request, reply) => {
    metrics.httpRequestDuration.observe(
      {
        method: request.method,
        route: routeOf(request.routeOptions.url, request.url),
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The provider's metrics (createProviderApp); /metrics serves their registry on its own port. */
    metrics: ProviderMetrics;
  }
}
