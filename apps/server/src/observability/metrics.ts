import { type Kysely, sql } from '@concierge/database';
import { AppMetrics, LATENCY_BUCKETS } from '@concierge/observability';
import { Counter, Gauge, Histogram } from 'prom-client';
import type { ServerTables } from '../db/schema';
import type { BreakerState } from '../provider-client/circuit-breaker';
import type { ProviderCallObserver } from '../provider-client/provider-http';
import type { BuildInfo } from './build-info';

const LAG_BUCKETS = [0.1, 0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600];
const BREAKER_STATES: Record<BreakerState, number> = { closed: 0, open: 1, half_open: 2 };
const LOCK_STATES = ['requested', 'locked'] as const;
/** Where a caller proves itself with a shared secret: the provider's webhooks, the admin API. */
export const AUTH_SURFACES = ['webhook', 'admin'] as const;

/**
 * The server's Prometheus metrics (docs/operations.md, "Metrics"): what every app has (AppMetrics:
 * its own registry, the process, `concierge_http_request_duration_seconds`, the pool), and the
 * server's own. Counters are counted where things happen; what the database holds (outbox, locks)
 * is read when /metrics is scraped. buildServer sets `log`: breaker changes are logged too.
 */
export class ServerMetrics extends AppMetrics {
  readonly providerCallDuration = new Histogram({
    name: 'concierge_provider_call_duration_seconds',
    help: 'Calls to the identity provider by operation and outcome (answer, refusal, unknown), with retries',
    labelNames: ['operation', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly providerRetries = new Counter({
    name: 'concierge_provider_call_retries_total',
    help: 'Idempotent provider calls sent again after no answer or a 5xx',
    labelNames: ['operation'] as const,
    registers: [this.registry],
  });

  readonly providerRejected = new Counter({
    name: 'concierge_provider_calls_rejected_total',
    help: 'Provider requests not sent because the circuit breaker was open (they count as unknown)',
    labelNames: ['operation'] as const,
    registers: [this.registry],
  });

  readonly breakerState = new Gauge({
    name: 'concierge_provider_breaker_state',
    help: 'The circuit breaker of the provider calls: 0 closed, 1 open (failing fast), 2 half-open (one trial call)',
    registers: [this.registry],
  });

  readonly breakerOpened = new Counter({
    name: 'concierge_provider_breaker_opened_total',
    help: 'How often the circuit breaker of the provider calls opened',
    registers: [this.registry],
  });

  readonly webhookLag = new Histogram({
    name: 'concierge_webhook_lag_seconds',
    help: "Time from a provider event's own timestamp to its intake here, by event type",
    labelNames: ['eventtype'] as const,
    buckets: LAG_BUCKETS,
    registers: [this.registry],
  });

  readonly webhookEvents = new Counter({
    name: 'concierge_webhook_events_total',
    help: 'Provider events received, by event type and outcome (applied, duplicate, ignored, unresolved)',
    labelNames: ['eventtype', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly signInFailures = new Counter({
    name: 'concierge_sign_in_failures_total',
    help: 'Failed sign-ins counted towards the lock (LOGIN_FAILURE events applied), by tenant',
    labelNames: ['tenant'] as const,
    registers: [this.registry],
  });

  readonly locksRequested = new Counter({
    name: 'concierge_account_locks_requested_total',
    help: 'Accounts whose failed sign-ins reached the limit (a new lock asked for), by the tenant of the last failure',
    labelNames: ['tenant'] as const,
    registers: [this.registry],
  });

  readonly lockApplications = new Counter({
    name: 'concierge_account_lock_applications_total',
    help: 'Attempts to set a lock at the provider right after a failure, by outcome (locked, no_account, not_due, busy, failed)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly authRefusals = new Counter({
    name: 'concierge_auth_refusals_total',
    help: 'Calls refused (401) for a missing or wrong secret, by surface: webhook (API key), admin (admin API token)',
    labelNames: ['surface'] as const,
    registers: [this.registry],
  });

  readonly buildInfo = new Gauge({
    name: 'concierge_build_info',
    help: 'Always 1: which release (version), commit and Node.js this instance runs',
    labelNames: ['version', 'commit', 'node'] as const,
    registers: [this.registry],
  });

  constructor() {
    super('concierge');
    // Both series from the start at 0: an alert on increase() sees the first refusal too.
    for (const surface of AUTH_SURFACES) this.authRefusals.inc({ surface }, 0);
  }

  /** The one series of concierge_build_info: a rollout shows as instances moving from one to the next. */
  setBuild(build: BuildInfo): void {
    this.buildInfo.reset();
    this.buildInfo.set({ version: build.version, commit: build.commit, node: build.node }, 1);
  }

  /** What the provider client reports, into the metrics above. */
  readonly providerCallObserver: ProviderCallObserver = {
    called: (operation, outcome, seconds) =>
      this.providerCallDuration.observe({ operation, outcome }, seconds),
    retried: (operation) => this.providerRetries.inc({ operation }),
    rejected: (operation) => this.providerRejected.inc({ operation }),
    breakerChanged: (state) => {
      this.breakerState.set(BREAKER_STATES[state]);
      if (state === 'open') this.breakerOpened.inc();
      const message = {
        open: 'provider unreachable: circuit breaker open, provider calls fail fast',
        half_open: 'circuit breaker half-open: one trial call to the provider',
        closed: 'provider reachable again: circuit breaker closed',
      }[state];
      if (state === 'open') this.log?.warn({ breaker: state }, message);
      else this.log?.info({ breaker: state }, message);
    },
  };

  /** Gauges read from the database and its pool at every scrape. */
  watchDatabase(db: Kysely<ServerTables>): void {
    const log = () => this.log;
    /** A scrape must not fail with the database: its gauges read NaN then, all else is still there. */
    const orNaN = async (read: () => Promise<void>, setNaN: () => void) => {
      try {
        await read();
      } catch (error) {
        setNaN();
        log()?.debug({ name: (error as Error).name }, 'metrics: the database could not be read');
      }
    };
    // One query for the three outbox gauges per scrape: each one's collect waits for the same read.
    let outboxRead: Promise<void> | undefined;
    const readOutbox = () => {
      outboxRead ??= orNaN(
        async () => {
          const row = await db
            .selectFrom('mail_outbox')
            .select([
              sql<string>`count(*) filter (where next_attempt_at is not null)`.as('pending'),
              sql<string>`count(*) filter (where next_attempt_at is null)`.as('undeliverable'),
              sql<Date | null>`min(created_at) filter (where next_attempt_at is not null)`.as('oldest'),
            ])
            .where('sent_at', 'is', null)
            .executeTakeFirstOrThrow();
          outboxPending.set(Number(row.pending));
          outboxUndeliverable.set(Number(row.undeliverable));
          const oldestMs = row.oldest ? new Date(row.oldest).getTime() : Date.now();
          outboxOldest.set(Math.max(0, (Date.now() - oldestMs) / 1000));
        },
        () => {
          for (const gauge of [outboxPending, outboxOldest, outboxUndeliverable]) gauge.set(Number.NaN);
        },
      ).finally(() => {
        outboxRead = undefined;
      });
      return outboxRead;
    };
    const outboxPending = new Gauge({
      name: 'concierge_outbox_pending',
      help: 'E-mails in the outbox waiting to be sent (or retried)',
      registers: [this.registry],
      collect: readOutbox,
    });
    const outboxOldest = new Gauge({
      name: 'concierge_outbox_oldest_pending_age_seconds',
      help: 'Age of the oldest e-mail waiting in the outbox; 0 when none waits',
      registers: [this.registry],
      collect: readOutbox,
    });
    const outboxUndeliverable = new Gauge({
      name: 'concierge_outbox_undeliverable',
      help: 'E-mails the outbox gave up on (kept until housekeeping removes them)',
      registers: [this.registry],
      collect: readOutbox,
    });

    const locks: Gauge<'state'> = new Gauge({
      name: 'concierge_account_locks',
      help: 'Accounts locked by state: requested (not yet confirmed at the provider) and locked',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect: () =>
        orNaN(
          async () => {
            const rows = await db
              .selectFrom('account_protection')
              .select(['lock_state', sql<string>`count(*)`.as('count')])
              .where('lock_state', '<>', 'none')
              .groupBy('lock_state')
              .execute();
            const counts = new Map(rows.map((row) => [row.lock_state, Number(row.count)]));
            for (const state of LOCK_STATES) locks.set({ state }, counts.get(state) ?? 0);
          },
          () => {
            for (const state of LOCK_STATES) locks.set({ state }, Number.NaN);
          },
        ),
    });

    this.watchPool(db);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The server's metrics (buildServer); /metrics serves their registry on its own port. */
    metrics: ServerMetrics;
  }
}
