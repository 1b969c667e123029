import { failure } from '@concierge/contracts';
import type { Kysely } from '@concierge/database';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ServerConfig } from './config';
import type { ServerTables } from './db/schema';
import { installErrorHandler } from './http/errors';
import { securityHeaders } from './http/security-headers';
import { brandRoutes } from './routes/brand';
import { healthRoutes } from './routes/health';
import { portalPageRoutes, renderPortalPage } from './routes/portal-pages';
import { runtimeConfigRoute } from './routes/runtime-config';
import type { PortalBuild } from './ssr/portal-bundle';
import type { TenantRegistry } from './tenants/tenant-registry';

export interface ServerDependencies {
  db: Kysely<ServerTables>;
  portal: PortalBuild;
  registry: TenantRegistry;
}

/** The whole server as one Fastify instance, built from its parts; tests drive it with inject(). */
export async function buildServer(config: ServerConfig, deps: ServerDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Query strings carry reset ids and verification ids: request logs name the path only.
      serializers: {
        req: (request) => ({ method: request.method, path: request.url.split('?')[0], ip: request.ip }),
      },
    },
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
  });
  installErrorHandler(app);
  await securityHeaders(app, config, deps.registry.portalOrigins());
  const pages = { build: deps.portal, runtime: config.runtime, registry: deps.registry };

  await app.register(healthRoutes, { db: deps.db });
  await app.register(runtimeConfigRoute, { runtime: config.runtime });
  await app.register(portalPageRoutes, pages);
  await app.register(brandRoutes, { registry: deps.registry, fallbackEnvironment: config.runtime.env });
  await app.register(fastifyStatic, {
    root: `${deps.portal.clientDir}/assets`,
    prefix: '/assets/',
    // File names carry a content hash: they never change.
    immutable: true,
    maxAge: '365d',
    index: false,
    wildcard: false,
  });

  app.setNotFoundHandler(async (request, reply) => {
    const wantsPage = request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');
    if (wantsPage) return renderPortalPage(pages, request, reply);
    return reply
      .status(404)
      .send(failure(404, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}`));
  });

  return app;
}
