import { databaseLocationFromEnv, openDatabase } from '@concierge/database';
import { buildServer } from './app';
import { loadConfig } from './config';
import { migrations, SERVER_SCHEMA } from './db/migrations';
import type { ServerTables } from './db/schema';
import { startHousekeeping } from './housekeeping';
import { createMailTransport } from './mail/mail-transport';
import { ServerMetrics } from './observability/metrics';
import { type MetricsServer, startMetricsServer } from './observability/metrics-server';
import { ProviderClient } from './provider-client/provider-client';
import { loadPortalBuild } from './ssr/portal-bundle';
import { loadTenantRegistry } from './tenants/load-registry';

const config = loadConfig();
const registry = await loadTenantRegistry(config.tenantsFile);
const portal = await loadPortalBuild(config.portalDistDir);
const database = await openDatabase<ServerTables>({
  location: databaseLocationFromEnv(),
  schema: SERVER_SCHEMA,
  migrations,
});
const metrics = new ServerMetrics();
const provider = new ProviderClient({
  baseUrl: config.providerUrl,
  ...config.providerAdmin,
  ...config.providerCalls,
  observer: metrics.providerCallObserver,
});
const app = await buildServer(config, {
  db: database.db,
  portal,
  registry,
  provider,
  mailTransport: createMailTransport(config.mail),
  metrics,
});
const stopHousekeeping = startHousekeeping(database.db, app.log);

async function shutdown(signal: string) {
  app.log.info(`${signal}: shutting down`);
  await metricsServer?.close();
  await app.close();
  await stopHousekeeping();
  await database.close();
  process.exit(0);
}
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ host: config.host, port: config.port });
// Prometheus metrics on a port of their own, when configured (docs/operations.md, "Metrics").
const metricsServer: MetricsServer | undefined = config.metrics
  ? await startMetricsServer(app.metrics.registry, config.metrics)
  : undefined;
if (metricsServer) app.log.info({ url: `${metricsServer.url}/metrics` }, 'metrics listening');
// The outbox worker and the registration reconciler; app.close() stops them.
app.backgroundJobs.start();
