import { databaseLocationFromEnv, loggableError, openDatabase } from '@concierge/database';
import { type MetricsServer, startMetricsServer } from '@concierge/observability';
import type { FastifyBaseLogger } from 'fastify';
import { buildServer } from './app';
import { loadConfig } from './config';
import { loadConsoleBuild } from './console/console-document';
import { migrations, SERVER_SCHEMA } from './db/migrations';
import type { ServerTables } from './db/schema';
import { startHousekeeping } from './housekeeping';
import { createMailTransport } from './mail/mail-transport';
import { buildInfoOf } from './observability/build-info';
import { ServerMetrics } from './observability/metrics';
import { logStart } from './observability/start-line';
import { tracingToCollector } from './observability/tracing';
import { ProviderClient } from './provider-client/provider-client';
import { loadPortalBuild } from './ssr/portal-bundle';
import { startBrandSync } from './tenants/brand-sync';
import { loadTenantRegistry } from './tenants/load-registry';
import { watchTenantRegistry } from './tenants/watch-registry';

// A configuration that is missing or weak stops the start with one message naming each variable.
const config = (() => {
  try {
    return loadConfig();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
})();
const registry = await loadTenantRegistry(config.tenantsFile, { portalUrl: config.portalUrl });
const portal = await loadPortalBuild(config.portalDistDir);
const consoleBuild = config.console ? await loadConsoleBuild(config.console.distDir) : undefined;
// The pool reports a broken idle connection (PostgreSQL restarted), and the traces' exporter a
// collector that refuses them, also before the app's logger exists.
let log: FastifyBaseLogger | undefined;
// OpenTelemetry traces, only when a collector is configured (docs/operations.md, "Traces"): the
// requests, their statements and their provider calls, each made where that protocol is handled.
const tracing = config.tracing
  ? await tracingToCollector(config.tracing, {
      serviceVersion: buildInfoOf(config.buildCommit).version,
      log: () => log,
    })
  : undefined;
const databaseLocation = databaseLocationFromEnv();
const database = await openDatabase<ServerTables>({
  location: databaseLocation,
  schema: SERVER_SCHEMA,
  migrations,
  onConnectionError: (error) =>
    log?.warn({ err: loggableError(error) }, 'database connection lost; the next query opens a new one'),
  log: tracing?.statementLog,
});
const metrics = new ServerMetrics();
const provider = new ProviderClient({
  baseUrl: config.providerUrl,
  ...config.providerAdmin,
  ...config.providerCalls,
  observer: metrics.providerCallObserver,
  tracing,
});
const app = await buildServer(config, {
  db: database.db,
  portal,
  ...(consoleBuild ? { console: consoleBuild } : {}),
  registry,
  provider,
  mailTransport: createMailTransport(config.mail),
  metrics,
  tracing,
});
log = app.log;
logStart(app.log, { config, databaseUrl: databaseLocation.url, migrations: database.migrations });
// A tenant added or a brand changed in the file takes effect without a restart.
const stopWatchingTenants = await watchTenantRegistry(
  registry,
  config.tenantsFile,
  { portalUrl: config.portalUrl },
  app.log,
);
// The brands published from the console, read before the server listens; every instance takes a
// publish within about two seconds (tenants/brand-sync.ts).
const brandSync = await startBrandSync({
  db: database.db,
  registry,
  databaseUrl: databaseLocation.url,
  schema: database.schema,
  log: app.log,
});
const stopHousekeeping = startHousekeeping(database.db, app.log, {
  sentMailRetentionDays: config.sentMailRetentionDays,
  auditRetentionDays: config.auditRetentionDays,
  ...(config.console
    ? { consoleSessions: { idleMs: config.console.idleMs, maxMs: config.console.maxMs } }
    : {}),
});

// After the drain, how long requests still under way may take before their connections are cut.
const CLOSE_DEADLINE_MS = 10_000;
// How long the last spans may take to reach the collector; an unreachable one does not hold the exit.
const TRACE_FLUSH_DEADLINE_MS = 5000;
// Declared before the signal handlers: a signal may come while the server is still starting.
let metricsServer: MetricsServer | undefined;
let isShuttingDown = false;
let endDrain: () => void = () => undefined;

/**
 * SIGTERM (an orchestrator, systemd, a rolling restart): /readyz answers 503 at once, and for
 * SHUTDOWN_DRAIN_SECONDS every request is still answered, each closing its connection; then the
 * server stops listening (a proxy sends new requests to another instance), finishes what is under
 * way, stops the background jobs and closes the database. SIGINT (Ctrl+C) and a second signal skip
 * the drain. docs/operations.md, "Shutdown and draining".
 */
async function shutdown(signal: NodeJS.Signals) {
  if (isShuttingDown) {
    endDrain();
    return;
  }
  isShuttingDown = true;
  app.drain.begin();
  const drainMs = signal === 'SIGTERM' ? config.shutdownDrainMs : 0;
  app.log.info({ signal, drainMs }, 'shutting down: not ready any more');
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, drainMs);
    endDrain = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  app.log.info('drained: closing');
  const deadline = setTimeout(() => {
    app.log.warn('requests still open after the close deadline: cutting their connections');
    app.server.closeAllConnections();
  }, CLOSE_DEADLINE_MS);
  await app.close();
  clearTimeout(deadline);
  await metricsServer?.close();
  stopWatchingTenants();
  await brandSync.stop();
  await stopHousekeeping();
  await database.close();
  // Last, when every request's span has ended: what is still queued goes to the collector.
  if (tracing) {
    await Promise.race([
      tracing.shutdown().catch(() => undefined),
      new Promise((resolve) => setTimeout(resolve, TRACE_FLUSH_DEADLINE_MS).unref()),
    ]);
  }
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ host: config.host, port: config.port });
// Prometheus metrics on a port of their own, when configured (docs/operations.md, "Metrics").
metricsServer = config.metrics ? await startMetricsServer(app.metrics.registry, config.metrics) : undefined;
if (metricsServer) app.log.info({ url: `${metricsServer.url}/metrics` }, 'metrics listening');
// The outbox worker and the registration reconciler; app.close() stops them.
app.backgroundJobs.start();
