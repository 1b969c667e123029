import { pickLanguage } from '@concierge/contracts';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { MessageStore } from './message-store';
import { renderInbox } from './pages/inbox';
import { renderMessage, renderMessageNotFound } from './pages/message';
import { INBOX_CSS } from './pages/styles';

// Inline styles and images stay allowed for the mail's own HTML: a srcdoc frame inherits this policy.
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "style-src 'self' 'unsafe-inline'",
  'img-src data: http: https:',
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

function languageOf(request: FastifyRequest) {
  return pickLanguage(request.headers['accept-language']);
}

// The clear form is the one state-changing browser request; another site must not be able to post it.
function isSameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}

export function createHttpApp(store: MessageStore): FastifyInstance {
  const app = Fastify({ logger: false });

  app.addHook('onSend', async (_request, reply) => {
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-content-type-options', 'nosniff');
    // The inbox changes with every message: never show a stale copy.
    reply.header('cache-control', 'no-store');
  });

  // The clear form posts url-encoded data that carries nothing we need.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_request, _body, done) => done(null, {}),
  );

  app.get('/inbox.css', async (_request, reply) => reply.type('text/css; charset=utf-8').send(INBOX_CSS));

  app.get('/', async (request, reply) => {
    const language = languageOf(request);
    return reply
      .type('text/html; charset=utf-8')
      .header('content-language', language)
      .header('vary', 'accept-language')
      .send(renderInbox(store.list(), language));
  });

  app.get<{ Params: { id: string } }>('/messages/:id', async (request, reply) => {
    const language = languageOf(request);
    const message = store.get(request.params.id);
    return reply
      .code(message ? 200 : 404)
      .type('text/html; charset=utf-8')
      .header('content-language', language)
      .header('vary', 'accept-language')
      .send(message ? renderMessage(message, language) : renderMessageNotFound(language));
  });

  app.post('/clear', async (request, reply) => {
    if (!isSameOrigin(request)) return reply.code(403).send({ error: 'forbidden' });
    store.clear();
    return reply.redirect('/', 303);
  });

  app.get<{ Querystring: { to?: string | string[] } }>('/api/messages', async (request) => {
    const { to } = request.query;
    return store.list({ to: typeof to === 'string' ? to : undefined });
  });

  app.get<{ Params: { id: string } }>('/api/messages/:id', async (request, reply) => {
    const message = store.get(request.params.id);
    if (!message) return reply.code(404).send({ error: 'not_found', message: 'No message with this id' });
    return message;
  });

  app.delete('/api/messages', async (_request, reply) => {
    store.clear();
    return reply.code(204).send();
  });

  return app;
}
