import { databaseLocationFromEnv, openDatabase } from '@concierge/database';
import { type MetricsServer, startMetricsServer } from '@concierge/observability';
import { createProviderApp } from './app';
import { ConfigError, loadConfig, productionRefusal } from './config';
import { migrations } from './db/migrations';
import { PROVIDER_SCHEMA, type ProviderTables } from './db/schema';
import { providerLoggerOptions } from './observability/logging';
import { deleteExpiredPayloads } from './oidc/adapter';
import { seedDemoUser } from './users/users';

const refusal = productionRefusal();
if (refusal) {
  console.error(refusal);
  process.exit(1);
}

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}

const database = await openDatabase<ProviderTables>({
  location: databaseLocationFromEnv(),
  schema: PROVIDER_SCHEMA,
  migrations,
});
await deleteExpiredPayloads(database.db);
if (config.isDemoSeedEnabled) await seedDemoUser(database.db);

const app = await createProviderApp(config, database, {
  // JSON lines without secrets; query strings carry id_token_hint, codes and e-mails (docs/operations.md).
  logger: providerLoggerOptions({
    level: process.env.LOG_LEVEL ?? 'info',
    isProduction: config.isProduction,
  }),
});
let metricsServer: MetricsServer | undefined;

let isStopping = false;
async function stop(signal: NodeJS.Signals) {
  if (isStopping) return;
  isStopping = true;
  app.log.info({ signal }, 'stopping');
  try {
    await metricsServer?.close();
    await app.close();
    await database.close();
    process.exit(0);
  } catch (error) {
    console.error(error);
    process.exit(1);
  }
}
process.once('SIGINT', stop);
process.once('SIGTERM', stop);

await app.listen({ port: config.port, host: config.host });
if (config.metrics) {
  metricsServer = await startMetricsServer(app.metrics.registry, config.metrics);
  app.log.info({ url: `${metricsServer.url}/metrics` }, 'metrics listening');
}
app.log.info({ issuer: config.issuer, portal: config.portalUrl }, 'embedded identity provider ready');
