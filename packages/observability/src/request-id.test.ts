import Fastify, { LogController } from 'fastify';
import { describe, expect, it } from 'vitest';
import { installRequestLog, loggerOptions } from './logging';
import { installRequestId, requestIdOf } from './request-id';

// The request id as both apps set it up: the answer's X-Request-Id is the id of the request's log line.

async function appWithIds() {
  const lines: string[] = [];
  const app = Fastify({
    genReqId: requestIdOf,
    logger: loggerOptions({
      level: 'info',
      isProduction: true,
      stream: { write: (line) => lines.push(line) },
    }),
    logController: new LogController({ disableRequestLogging: true }),
  });
  installRequestId(app);
  installRequestLog(app, { probes: [] });
  // A guard answering from its own hook, as the apps' safe-text guards do.
  app.addHook('onRequest', async (request, reply) => {
    if (request.url === '/guarded') return reply.status(400).send({ refused: true });
  });
  app.get('/ok', async () => ({ ok: true }));
  app.get('/broken', async () => {
    throw new Error('broken');
  });
  await app.ready();
  const loggedIds = () =>
    lines
      .map((line) => JSON.parse(line) as { msg: string; reqId: string })
      .filter((line) => line.msg === 'request completed')
      .map((line) => line.reqId);
  return { app, loggedIds };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('the request id', () => {
  it('is the load balancer’s when it is a safe token, on the answer and on the log line', async () => {
    const { app, loggedIds } = await appWithIds();
    const nginx = 'f3b1c9a07d2e4c8b9a6d5e4f3c2b1a09';
    const answers = [
      await app.inject({ url: '/ok', headers: { 'x-request-id': nginx } }),
      await app.inject({ url: '/nowhere', headers: { 'x-request-id': 'trace:01.ab_C-2' } }),
      await app.inject({ url: '/broken', headers: { 'x-request-id': 'x'.repeat(128) } }),
      await app.inject({ url: '/guarded', headers: { 'x-request-id': 'guarded-1' } }),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 404, 500, 400]);
    const ids = [nginx, 'trace:01.ab_C-2', 'x'.repeat(128), 'guarded-1'];
    expect(answers.map((answer) => answer.headers['x-request-id'])).toEqual(ids);
    expect(loggedIds()).toEqual(ids);
  });

  it('is a fresh UUID, different each time, without one or for one that is not a safe token', async () => {
    const { app, loggedIds } = await appWithIds();
    const unsafe = ['x'.repeat(129), 'two words', 'a"b', '{"level":60}', '../etc', ''];
    const answers = [
      await app.inject({ url: '/ok' }),
      await app.inject({ url: '/ok' }),
      ...(await Promise.all(unsafe.map((id) => app.inject({ url: '/ok', headers: { 'x-request-id': id } })))),
    ];
    const ids = answers.map((answer) => String(answer.headers['x-request-id']));
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(loggedIds())).toEqual(new Set(ids));
  });
});
