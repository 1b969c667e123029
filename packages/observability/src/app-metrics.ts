import { type PoolStats, poolStatsOf } from '@concierge/database';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Buckets of the duration histograms, 5 ms to 10 s: a page, an API call, a provider call. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The route a request is counted and logged under, from Fastify's route pattern and the URL. */
export type RouteOf = (pattern: string | undefined, url: string) => string;

/**
 * Fastify's route pattern (`/messages/:language`), never the URL with its ids, so that made-up paths
 * cannot make new series; requests no route matched (the not-found handler) share `unmatched`.
 */
export const routePattern: RouteOf = (pattern) => pattern ?? 'unmatched';

/**
 * What every app's Prometheus metrics have (docs/operations.md, "Metrics"): a registry of their own
 * per app instance (never prom-client's global one), so that several apps in one process — the tests
 * — keep apart; the process's default metrics (CPU, memory, handles, GC, event-loop lag); every
 * answer by method, route and status; and, once watched, the database pool, read at each scrape.
 * The series are named `<prefix>_…`; each app adds its own series to the registry.
 */
export class AppMetrics {
  readonly registry = new Registry();
  /** Set by the app once its logger exists: for what a scrape could not read. */
  log: FastifyBaseLogger | undefined;
  readonly httpRequestDuration: Histogram<'method' | 'route' | 'status_code'>;
  readonly #prefix: string;

  constructor(prefix: string) {
    this.#prefix = prefix;
    collectDefaultMetrics({ register: this.registry });
    this.httpRequestDuration = new Histogram({
      name: `${prefix}_http_request_duration_seconds`,
      help: 'HTTP requests answered, by method, route pattern and status code, and how long they took',
      labelNames: ['method', 'route', 'status_code'] as const,
      buckets: LATENCY_BUCKETS,
      registers: [this.registry],
    });
  }

  /** The pool under a database of openDatabase: open, idle, and queries waiting for a connection. */
  watchPool(db: object): void {
    const pool = (name: string, help: string, read: (stats: PoolStats) => number) =>
      new Gauge({
        name: `${this.#prefix}_${name}`,
        help,
        registers: [this.registry],
        collect() {
          const stats = poolStatsOf(db);
          if (stats) this.set(read(stats));
        },
      });
    pool('db_pool_connections', 'Connections the database pool holds open', (stats) => stats.total);
    pool('db_pool_idle_connections', 'Open connections of the pool not in use', (stats) => stats.idle);
    pool(
      'db_pool_waiting_requests',
      'Queries waiting for a connection of the pool',
      (stats) => stats.waiting,
    );
  }
}

/** Times every answer by its route (routeOf; by default Fastify's pattern), never by the URL. */
export function installHttpMetrics(
  app: FastifyInstance,
  metrics: AppMetrics,
  routeOf: RouteOf = routePattern,
): void {
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
