import { loggableError } from '@concierge/database';
import type { FastifyPluginAsync } from 'fastify';
import { normaliseClientAuthRequest } from '../oidc/client-auth-request';
import type { RouteDeps } from './deps';

/**
 * Everything the other routes do not claim goes to oidc-provider (a Koa app) untouched. Encapsulated
 * so that its "parse nothing" content-type rule does not leak: oidc-provider reads the raw body stream
 * itself and refuses a body that was already consumed.
 */
export const oidcForwardRoutes: FastifyPluginAsync<RouteDeps> = async (app, { provider, clients }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
  const handle = provider.callback();

  app.all('/*', async (request, reply) => {
    reply.hijack();
    try {
      const normalised = await normaliseClientAuthRequest(request.raw, clients);
      if ('error' in normalised) {
        reply.raw.writeHead(400, {
          'content-type': 'application/json; charset=utf-8',
          'cache-control': 'no-store',
        });
        reply.raw.end(JSON.stringify({ error: normalised.error, error_description: normalised.description }));
        return;
      }
      await handle(normalised.request, reply.raw);
    } catch (error) {
      request.log.error({ err: loggableError(error) }, 'forwarding to oidc-provider failed');
      if (!reply.raw.headersSent)
        reply.raw.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
      reply.raw.end(JSON.stringify({ error: 'server_error' }));
    }
  });
};
