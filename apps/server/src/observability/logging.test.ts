import { failure } from '@concierge/contracts';
import { noteForLog } from '@concierge/observability';
import Fastify, { LogController } from 'fastify';
import { describe, expect, it } from 'vitest';
import { installServerRequestLog, serverLoggerOptions } from './logging';

// The server's own parts of its log lines; what both apps' logs share is tested with
// packages/observability/src/logging.ts.

/** A bare Fastify with the server's logger and request log, its lines collected. */
async function appLogging() {
  const lines: string[] = [];
  const app = Fastify({
    logger: serverLoggerOptions({
      level: 'trace',
      isProduction: true,
      secretHeaders: ['X-Webhook-Key'],
      stream: { write: (line) => lines.push(line) },
    }),
    logController: new LogController({ disableRequestLogging: true }),
  });
  installServerRequestLog(app, (subdomain) => subdomain === 'demo');
  app.post('/echo', async (request) => {
    // A careless log call: the webhook's key header is censored like the usual secret headers.
    request.log.info({ headers: request.headers, body: request.body }, 'careless');
    return { ok: true };
  });
  app.get('/refused', async (request, reply) => {
    noteForLog(request, { tenant: 'r5' });
    return reply.status(409).send(failure(409, 'email_already_registered_db', 'taken'));
  });
  app.get('/noted-refusal', async (request, reply) => {
    noteForLog(request, { outcome: 'unresolved' });
    return reply.status(503).send(failure(503, 'service_unavailable', 'later'));
  });
  app.post('/api/admin/codes/:code/revoke', async () => ({ ok: true }));
  app.get('/readyz', async () => ({ status: 'ok' }));
  await app.ready();
  return {
    app,
    completed: () =>
      lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.msg === 'request completed'),
    text: () => lines.join(''),
  };
}

describe('the server logger', () => {
  it('censors the webhook key header and a registration code in the admin API’s path', async () => {
    const { app, text, completed } = await appLogging();
    await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'x-webhook-key': 'webhook-key-123456', 'content-type': 'application/json' },
      payload: { registrationcode: 'code-123456' },
    });
    await app.inject({ method: 'POST', url: '/api/admin/codes/ABCD-2345-EFGH/revoke' });
    const log = text();
    expect(log).toContain('careless');
    for (const secret of ['webhook-key-123456', 'code-123456', 'ABCD-2345-EFGH']) {
      expect(log).not.toContain(secret);
    }
    expect(completed()[1]).toMatchObject({
      req: { url: '/api/admin/codes/[redacted]/revoke' },
      route: '/api/admin/codes/:code/revoke',
    });
  });

  it('puts the tenant and the envelope’s error code on the request’s line', async () => {
    const { app, completed } = await appLogging();
    await app.inject({ method: 'GET', url: '/refused?subdomain=demo&email=anna%40example.ch' });
    await app.inject({ method: 'POST', url: '/echo?subdomain=demo', payload: {} });
    await app.inject({ method: 'POST', url: '/echo?subdomain=made-up', payload: {} });
    await app.inject({ method: 'GET', url: '/noted-refusal' });
    await app.inject({ method: 'GET', url: '/readyz' });
    expect(completed()).toEqual([
      expect.objectContaining({
        reqId: expect.any(String),
        req: { method: 'GET', url: '/refused?subdomain=demo&email=[redacted]', ip: '127.0.0.1' },
        route: '/refused',
        statusCode: 409,
        responseTime: expect.any(Number),
        // What the handler noted wins over the query; the envelope's code is the outcome.
        tenant: 'r5',
        outcome: 'email_already_registered_db',
      }),
      expect.objectContaining({ route: '/echo', statusCode: 200, tenant: 'demo', outcome: 'ok' }),
      expect.objectContaining({ route: '/echo', statusCode: 200, outcome: 'ok' }),
      // What the handler noted wins over the envelope's code.
      expect.objectContaining({ level: 40, statusCode: 503, outcome: 'unresolved' }),
      // Both health probes log at debug.
      expect.objectContaining({ level: 20, route: '/readyz' }),
    ]);
    // A subdomain no tenant has is not put on the line.
    expect(completed()[2]).not.toHaveProperty('tenant');
  });
});
