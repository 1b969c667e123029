import { databaseLocationFromEnv, openDatabase } from '@concierge/database';
import { buildServer } from './app';
import { loadConfig } from './config';
import { migrations, SERVER_SCHEMA } from './db/migrations';
import type { ServerTables } from './db/schema';
import { startHousekeeping } from './housekeeping';
import { createMailTransport } from './mail/mail-transport';
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
const provider = new ProviderClient({ baseUrl: config.providerUrl, ...config.providerAdmin });
const app = await buildServer(config, {
  db: database.db,
  portal,
  registry,
  provider,
  mailTransport: createMailTransport(config.mail),
});
const stopHousekeeping = startHousekeeping(database.db, app.log);

async function shutdown(signal: string) {
  app.log.info(`${signal}: shutting down`);
  await app.close();
  await stopHousekeeping();
  await database.close();
  process.exit(0);
}
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ host: config.host, port: config.port });
// The outbox worker and the registration reconciler; app.close() stops them.
app.backgroundJobs.start();
