import type { RuntimeConfig } from '@concierge/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TenantRegistry } from '../tenants/tenant-registry';

interface RuntimeConfigOptions {
  runtime: RuntimeConfig;
  registry: TenantRegistry;
}

/**
 * spec §7: GET /config.json gives env, cidaasBaseUrl, restApiBaseUrl and {product}ClientId. `env` is
 * the environment a page of the same address is rendered with (spec §1: the tenant of `subdomain`,
 * else the host's prefix, else the configured default), decided by the registry as for the pages.
 */
export async function runtimeConfigRoute(app: FastifyInstance, { runtime, registry }: RuntimeConfigOptions) {
  app.get(
    '/config.json',
    async (request: FastifyRequest<{ Querystring: { subdomain?: unknown } }>, reply) => {
      const { environment } = registry.resolve({
        subdomain: request.query.subdomain,
        host: request.hostname,
        fallbackEnvironment: runtime.env,
      });
      return reply.header('cache-control', 'no-cache').send({ ...runtime, env: environment });
    },
  );
}
