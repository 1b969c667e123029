import { failure } from '@concierge/contracts';
import Fastify, { LogController } from 'fastify';
import { describe, expect, it } from 'vitest';
import { installRequestLog, loggerOptions, noteForLog } from './logging';

/** A bare Fastify with the server's logger and request log, its lines collected. */
async function appLogging() {
  const lines: string[] = [];
  const app = Fastify({
    logger: loggerOptions({
      level: 'trace',
      isProduction: true,
      secretHeaders: ['X-Webhook-Key'],
      stream: { write: (line) => lines.push(line) },
    }),
    logController: new LogController({ disableRequestLogging: true }),
  });
  installRequestLog(app, (subdomain) => subdomain === 'demo');
  app.post('/echo', async (request) => {
    // A careless log call: the secret headers and fields are censored all the same.
    request.log.info({ headers: request.headers, body: request.body, password: 'top-Secret-1' }, 'careless');
    return { ok: true };
  });
  app.get('/refused', async (request, reply) => {
    noteForLog(request, { tenant: 'r5' });
    return reply.status(409).send(failure(409, 'email_already_registered_db', 'taken'));
  });
  await app.ready();
  return {
    app,
    lines: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    text: () => lines.join(''),
  };
}

describe('the server logger', () => {
  it('censors secret headers and fields wherever a log call puts them', async () => {
    const { app, text } = await appLogging();
    await app.inject({
      method: 'POST',
      url: '/echo',
      headers: {
        authorization: 'Bearer admin-token-123456',
        cookie: 'session=cookie-value-123456',
        'x-api-key': 'api-key-123456',
        'x-webhook-key': 'webhook-key-123456',
        'content-type': 'application/json',
      },
      payload: { email: 'anna@example.ch', password: 'body-Secret-1', registrationcode: 'code-123456' },
    });
    const log = text();
    expect(log).toContain('careless');
    for (const secret of [
      'admin-token-123456',
      'cookie-value-123456',
      'api-key-123456',
      'webhook-key-123456',
      'anna@example.ch',
      'body-Secret-1',
      'top-Secret-1',
      'code-123456',
    ]) {
      expect(log).not.toContain(secret);
    }
  });

  it('writes one line per request: id, redacted URL, route, status, time, tenant and outcome', async () => {
    const { app, lines } = await appLogging();
    await app.inject({ method: 'GET', url: '/refused?subdomain=demo&email=anna%40example.ch' });
    await app.inject({ method: 'POST', url: '/echo?subdomain=demo', payload: {} });
    await app.inject({ method: 'POST', url: '/echo?subdomain=made-up', payload: {} });
    const completed = lines().filter((line) => line.msg === 'request completed');
    expect(completed).toEqual([
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
    ]);
    // A subdomain no tenant has is not put on the line.
    expect(completed[2]).not.toHaveProperty('tenant');
  });
});
