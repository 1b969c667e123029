import type { FastifyInstance } from 'fastify';

const DROPPED = new Set(['error', 'error_description', 'username', 'requestId']);

/**
 * The login form posts to the provider only with a request id. A page rendered while none could be
 * had (the provider did not answer in time) posts here instead when JavaScript is off: the form is
 * discarded unread, and the tenant gets the page again, which asks for a fresh request — never the
 * provider's raw answer to a request without an id.
 */
export async function loginWithoutRequestRoute(app: FastifyInstance) {
  // Only in this scope. The fields are read only for the input guard, which refuses unsafe text
  // here as everywhere; nothing else looks at them (they hold the password).
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  app.post('/login', async (request, reply) => {
    const queryStart = request.url.indexOf('?');
    const query = new URLSearchParams(queryStart === -1 ? '' : request.url.slice(queryStart + 1));
    for (const name of DROPPED) query.delete(name);
    query.set('error', 'session_expired');
    return reply.header('cache-control', 'no-store').redirect(`/login?${query}`, 303);
  });
}
