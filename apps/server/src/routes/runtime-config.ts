import type { RuntimeConfig } from '@concierge/contracts';
import type { FastifyInstance } from 'fastify';

/** spec §7: GET /config.json gives env, cidaasBaseUrl, restApiBaseUrl and {product}ClientId. */
export async function runtimeConfigRoute(app: FastifyInstance, options: { runtime: RuntimeConfig }) {
  app.get('/config.json', async (_request, reply) =>
    reply.header('cache-control', 'no-cache').send(options.runtime),
  );
}
