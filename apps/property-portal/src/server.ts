import { sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { PropertyPortalConfig } from './config';
import { runtimeConfigOf } from './runtime-config';
import { securityHeaders } from './security-headers';

/** The routes the browser app renders itself; each gets index.html. */
export const APP_ROUTES = ['/', '/login', '/callback', '/silent-renew', '/popup-callback'] as const;

export async function createPropertyPortalServer(
  config: PropertyPortalConfig,
  options: Pick<FastifyServerOptions, 'logger'> = {},
): Promise<FastifyInstance> {
  const app = Fastify({ logger: options.logger ?? false });
  const headers = securityHeaders(config.providerUrl);
  const runtimeConfig = runtimeConfigOf(config);

  app.addHook('onSend', async (_request, reply) => {
    reply.headers(headers);
  });

  await app.register(fastifyStatic, {
    root: config.distDir,
    // A folder path does not map to its index.html: the app routes below are the only entry points.
    index: false,
    cacheControl: false,
    setHeaders(reply, path) {
      // Vite puts a content hash into every file name under assets/; index.html must be checked each time.
      const isHashed = path.includes(`${sep}assets${sep}`);
      reply.header('cache-control', isHashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });

  app.get('/config.json', async (_request, reply) =>
    reply.header('cache-control', 'no-store').send(runtimeConfig),
  );

  for (const route of APP_ROUTES) {
    app.get(route, async (_request, reply) => reply.sendFile('index.html'));
  }

  return app;
}
