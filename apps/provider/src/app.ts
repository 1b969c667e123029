import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { ProviderConfig } from './config';
import type { ProviderDatabase } from './db/schema';
import { deleteExpiredPayloads } from './oidc/adapter';
import { createClientDirectory } from './oidc/clients';
import { createOidcProvider } from './oidc/provider';
import { adminUserRoutes } from './routes/admin-users';
import type { RouteDeps } from './routes/deps';
import { envelopeErrorHandler } from './routes/envelope-errors';
import { healthRoutes } from './routes/health';
import { loginRoutes } from './routes/login';
import { oidcForwardRoutes } from './routes/oidc-forward';
import { PUBLIC_PREFIX, publicInfoRoutes } from './routes/public-info';
import { USER_ACTIONS_PREFIX, userExistenceRoutes } from './routes/user-existence';

const HOUSEKEEPING_INTERVAL_MS = 10 * 60 * 1000;

export interface ProviderAppOptions {
  /** Fastify logger; off by default (tests). */
  logger?: FastifyServerOptions['logger'];
}

/**
 * The whole provider as one Fastify instance, not yet listening: the hosted-page and admin routes of
 * cidaas, and oidc-provider behind them for every OIDC endpoint.
 */
export async function createProviderApp(
  config: ProviderConfig,
  database: ProviderDatabase,
  options: ProviderAppOptions = {},
): Promise<FastifyInstance> {
  const clients = createClientDirectory(config.clients);
  const provider = await createOidcProvider(config, database.db, clients);
  const app = Fastify({ logger: options.logger ?? false });
  provider.on('server_error', (_ctx, error) => app.log.error({ err: error }, 'oidc-provider server error'));

  const deps: RouteDeps = { config, db: database.db, provider, clients };
  app.setErrorHandler(envelopeErrorHandler);
  await app.register(healthRoutes, deps);
  await app.register(loginRoutes, deps);
  await app.register(userExistenceRoutes, { ...deps, prefix: USER_ACTIONS_PREFIX });
  await app.register(publicInfoRoutes, { ...deps, prefix: PUBLIC_PREFIX });
  await app.register(adminUserRoutes, deps);
  await app.register(oidcForwardRoutes, deps);

  const housekeeping = setInterval(() => {
    deleteExpiredPayloads(database.db).catch((error: unknown) =>
      app.log.warn({ err: error }, 'deleting expired oidc payloads failed'),
    );
  }, HOUSEKEEPING_INTERVAL_MS);
  housekeeping.unref();
  app.addHook('onClose', async () => clearInterval(housekeeping));
  return app;
}
