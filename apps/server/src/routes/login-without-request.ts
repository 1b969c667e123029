import { EMAIL_MAX_LENGTH } from '@concierge/contracts';
import type { FastifyInstance } from 'fastify';

const DROPPED = new Set(['error', 'error_description', 'username', 'requestId']);

/**
 * The login form posts to the provider only with a request id. A page rendered without one (the
 * provider was away, or this address asked for too many) posts here instead: the password is
 * discarded unread, and the tenant gets the page again with the typed e-mail and a word that nothing
 * was sent — with a fresh request once the provider answers again, never the provider's raw answer
 * to a request without an id.
 */
export async function loginWithoutRequestRoute(app: FastifyInstance) {
  // Only in this scope. The fields are read only for the input guard, which refuses unsafe text
  // here as everywhere, and for the e-mail that is shown again.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  app.post('/login', async (request, reply) => {
    const queryStart = request.url.indexOf('?');
    const query = new URLSearchParams(queryStart === -1 ? '' : request.url.slice(queryStart + 1));
    for (const name of DROPPED) query.delete(name);
    const { username } = (request.body ?? {}) as Record<string, unknown>;
    const email = typeof username === 'string' ? username.trim() : '';
    // Only what could be an e-mail goes back into the address (a huge value would make a huge URL).
    if (email && email.length <= EMAIL_MAX_LENGTH) query.set('username', email);
    query.set('error', 'not_sent');
    return reply.header('cache-control', 'no-store').redirect(`/login?${query}`, 303);
  });
}
