import type { FastifyInstance } from 'fastify';

/**
 * Issue 26: every JSON answer (the account API, the admin API, errors, health) is kept by no cache,
 * shared or the browser's own: `Cache-Control: no-store`, in one hook rather than per route. A route
 * that says otherwise keeps its own (`/config.json` and `/page-state.json` no-cache, the designs and
 * texts public for 5 minutes).
 */
export function installJsonNoStore(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.hasHeader('cache-control')) return payload;
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && /^application\/([\w.+-]*\+)?json\b/i.test(type)) {
      reply.header('cache-control', 'no-store');
    }
    return payload;
  });
}
