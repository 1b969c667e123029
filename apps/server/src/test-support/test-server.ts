import { openTestDatabase } from '@concierge/database';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../app';
import { loadConfig } from '../config';
import { migrations, SERVER_SCHEMA } from '../db/migrations';
import type { ServerTables } from '../db/schema';
import { loadPortalBuild } from '../ssr/portal-bundle';
import { loadTenantRegistry } from '../tenants/load-registry';

/** The real server on a real database (PGlite, or PostgreSQL when DATABASE_URL is set) and the built portal. */
export async function startTestServer(env: Record<string, string> = {}) {
  const config = loadConfig({
    PORTAL_URL: 'http://portal.test',
    PROVIDER_URL: 'http://provider.test',
    LOG_LEVEL: 'warn',
    ...env,
  });
  const database = await openTestDatabase<ServerTables>(SERVER_SCHEMA, migrations);
  const app: FastifyInstance = await buildServer(config, {
    db: database.db,
    portal: await loadPortalBuild(config.portalDistDir),
    registry: await loadTenantRegistry(config.tenantsFile),
  });
  return {
    app,
    config,
    async close() {
      await app.close();
      await database.close();
    },
  };
}
