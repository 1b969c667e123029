import Fastify, { LogController } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { RouteOf } from './app-metrics';
import { installRequestLog, type LogSettings, loggerOptions, noteForLog } from './logging';

/** A bare Fastify with the shared logger and request log, its lines collected. */
async function appLogging(settings: Partial<LogSettings> = {}, routeOf?: RouteOf) {
  const lines: string[] = [];
  const app = Fastify({
    logger: loggerOptions({
      level: 'trace',
      isProduction: true,
      stream: { write: (line) => lines.push(line) },
      ...settings,
    }),
    logController: new LogController({ disableRequestLogging: true }),
  });
  installRequestLog(app, {
    probes: ['/healthz'],
    routeOf,
    fallback: (request) => ({
      outcome: request.headers['x-fallback-outcome'] as string | undefined,
      tenant: request.headers['x-fallback-tenant'] as string | undefined,
    }),
  });
  app.post('/echo/:id', async (request) => {
    // A careless log call: the secret headers and fields are censored all the same.
    request.log.info(
      {
        headers: request.headers,
        body: request.body,
        password: 'top-Secret-1',
        nested: { token: 'tok-123456' },
      },
      'careless',
    );
    return { ok: true };
  });
  app.get('/noted', async (request, reply) => {
    noteForLog(request, { outcome: 'applied' });
    noteForLog(request, { tenant: 'r5' });
    return reply.status(202).send();
  });
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/broken', async () => {
    throw new Error('broken');
  });
  await app.ready();
  return {
    app,
    lines: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    text: () => lines.join(''),
  };
}

const completed = (lines: Record<string, unknown>[]) =>
  lines.filter((line) => line.msg === 'request completed');

describe('the shared logger', () => {
  it('censors secret headers and fields wherever a log call puts them, and those the app adds', async () => {
    const { app, text } = await appLogging({ secretHeaders: ['X-Webhook-Key'], secretFields: ['code'] });
    await app.inject({
      method: 'POST',
      url: '/echo/1',
      headers: {
        authorization: 'Bearer admin-token-123456',
        cookie: 'session=cookie-value-123456',
        'x-api-key': 'api-key-123456',
        'x-webhook-key': 'webhook-key-123456',
        'content-type': 'application/json',
      },
      payload: {
        email: 'anna@example.ch',
        password: 'body-Secret-1',
        registrationcode: 'regcode-123456',
        code: 'authcode-123456',
      },
    });
    const log = text();
    expect(log).toContain('careless');
    expect(log).toContain('[redacted]');
    for (const secret of [
      'admin-token-123456',
      'cookie-value-123456',
      'api-key-123456',
      'webhook-key-123456',
      'anna@example.ch',
      'body-Secret-1',
      'top-Secret-1',
      'tok-123456',
      'regcode-123456',
      'authcode-123456',
    ]) {
      expect(log).not.toContain(secret);
    }
  });

  it('replaces secret query values in the URL, and what the app’s redactPath replaces', async () => {
    const { app, lines } = await appLogging({
      redactPath: (url) => url.replace(/\/echo\/[^/?]+/, '/echo/[id]'),
    });
    await app.inject({ method: 'POST', url: '/echo/4711?email=anna%40example.ch&lang=de', payload: {} });
    const [line] = completed(lines());
    expect(line).toMatchObject({ req: { method: 'POST', url: '/echo/[id]?email=[redacted]&lang=de' } });
  });

  it('writes one line per request: id, route pattern, status, time and outcome', async () => {
    const { app, lines } = await appLogging();
    await app.inject({ method: 'POST', url: '/echo/4711', payload: {} });
    await app.inject({
      url: '/noted',
      headers: { 'x-fallback-outcome': 'ignored', 'x-fallback-tenant': 'demo' },
    });
    await app.inject({ url: '/nowhere/4711', headers: { 'x-fallback-outcome': 'fallen-back' } });
    await app.inject({ url: '/nowhere/4712' });
    expect(completed(lines())).toEqual([
      expect.objectContaining({
        level: 30,
        reqId: expect.any(String),
        req: { method: 'POST', url: '/echo/4711', ip: '127.0.0.1' },
        route: '/echo/:id',
        statusCode: 200,
        responseTime: expect.any(Number),
        outcome: 'ok',
      }),
      // What the handler noted wins over the fallback.
      expect.objectContaining({ route: '/noted', statusCode: 202, tenant: 'r5', outcome: 'applied' }),
      expect.objectContaining({ route: 'unmatched', statusCode: 404, outcome: 'fallen-back' }),
      expect.objectContaining({ route: 'unmatched', statusCode: 404, outcome: 'refused' }),
    ]);
    // No tenant, no field.
    expect(completed(lines())[0]).not.toHaveProperty('tenant');
  });

  it('logs failed answers at warn and the probes at debug', async () => {
    const { app, lines } = await appLogging();
    await app.inject({ url: '/broken' });
    await app.inject({ url: '/healthz' });
    expect(completed(lines())).toEqual([
      expect.objectContaining({ level: 40, route: '/broken', statusCode: 500, outcome: 'failed' }),
      expect.objectContaining({ level: 20, route: '/healthz', statusCode: 200, outcome: 'ok' }),
    ]);
  });

  it('names the route as the app says', async () => {
    const { app, lines } = await appLogging({}, (pattern, url) => `${pattern ?? 'none'} for ${url}`);
    await app.inject({ url: '/x?y=1' });
    await app.inject({ url: '/healthz' });
    expect(completed(lines())).toEqual([
      expect.objectContaining({ route: 'none for /x?y=1' }),
      expect.objectContaining({ route: '/healthz for /healthz' }),
    ]);
  });
});

describe('the log format', () => {
  const isTTY = process.stdout.isTTY;
  afterEach(() => {
    process.stdout.isTTY = isTTY;
  });

  it('is readable through pino-pretty on a terminal in development, JSON otherwise', () => {
    process.stdout.isTTY = true;
    expect(loggerOptions({ level: 'info', isProduction: false })).toMatchObject({
      transport: { target: 'pino-pretty' },
    });
    expect(loggerOptions({ level: 'info', isProduction: true })).not.toHaveProperty('transport');
    process.stdout.isTTY = false;
    expect(loggerOptions({ level: 'info', isProduction: false })).not.toHaveProperty('transport');
  });
});
