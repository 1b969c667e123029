import { type MetricsServer, startMetricsServer } from '@concierge/observability';
import { metricSample as sample, scrapeMetrics } from '@concierge/test-support';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminToken,
  createPkce,
  type ProviderHarness,
  postLogin,
  startAuthorization,
  startProvider,
} from '../test-support/provider-harness';
import { TestBrowser } from '../test-support/test-browser';
import { createUser } from '../users/users';
import { providerLoggerOptions } from './logging';

// The embedded provider's /metrics and logs, as an operator meets them. The metrics port itself and
// what both apps' metrics and logs share are tested with packages/observability.

const PASSWORD = 'Corr3ct-Horse!';
const WRONG = 'Wr0ng-Horse!x';
const lines: string[] = [];
let harness: ProviderHarness;
let metrics: MetricsServer;
beforeAll(async () => {
  harness = await startProvider([], {
    // The third wrong password blocks (cidaas's protection); two failures per request id at most.
    env: { PROVIDER_BLOCK_AFTER_FAILURES: '3', PROVIDER_LOGIN_LIMIT_PER_REQUEST: '2' },
    logger: providerLoggerOptions({
      level: 'trace',
      isProduction: true,
      stream: { write: (line) => lines.push(line) },
    }),
  });
  metrics = await startMetricsServer(harness.app.metrics.registry, { host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await metrics?.close();
  await harness?.close();
});

const scrape = () => scrapeMetrics(metrics.url);

async function newUser(email: string) {
  const created = await createUser(harness.database.db, { email, password: PASSWORD, status: 'VERIFIED' });
  if (!created.isCreated) throw new Error('user not created');
}

/** A sign-in through the hosted page's form: a fresh request id unless one is given. */
async function signIn(email: string, password: string, requestId?: string) {
  const browser = new TestBrowser();
  const id = requestId ?? (await startAuthorization(harness, browser, createPkce())).requestId;
  const response = await postLogin(harness, browser, { username: email, password, requestId: id });
  expect(response.status).toBe(303);
  return response;
}

describe('/metrics of the embedded provider', () => {
  it('is on its own port only', async () => {
    expect((await fetch(`${harness.baseUrl}/metrics`)).status).toBe(404);
    expect(await scrape()).toContain('provider_');
  });

  it('counts requests by route pattern, also through the OIDC catch-all, never by the URL', async () => {
    const before = await scrape();
    await fetch(`${harness.baseUrl}/.well-known/jwks.json`);
    await fetch(`${harness.baseUrl}/made-up/4711`);
    await fetch(`${harness.baseUrl}/useractions-srv/userexistence/no-such-request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://portal.test' },
      body: JSON.stringify({ email: 'someone@example.com' }),
    });
    const after = await scrape();
    const count = (route: string) =>
      (sample(after, 'provider_http_request_duration_seconds_count', { route }) ?? 0) -
      (sample(before, 'provider_http_request_duration_seconds_count', { route }) ?? 0);
    expect(count('/.well-known/jwks.json')).toBe(1);
    expect(count('/*')).toBe(1);
    expect(count('/useractions-srv/userexistence/:requestId')).toBe(1);
    expect(after).not.toContain('4711');
    expect(after).not.toContain('no-such-request');
  });

  it('counts sign-ins: successes, failures, locks and refusals by a limit; the webhooks wait in the outbox', async () => {
    const email = 'metrics-user@example.com';
    await newUser(email);
    const before = await scrape();
    await signIn(email, PASSWORD);
    await signIn(email, WRONG);
    await signIn(email, WRONG);
    // The per-request limit (2): the third attempt with the same request id is not checked.
    const browser = new TestBrowser();
    const { requestId } = await startAuthorization(harness, browser, createPkce());
    await signIn('nobody@example.com', WRONG, requestId);
    await signIn('nobody@example.com', WRONG, requestId);
    await signIn(email, PASSWORD, requestId);
    // The third wrong password blocks the account.
    await signIn(email, WRONG);
    const after = await scrape();
    const delta = (labels: Record<string, string>) =>
      (sample(after, 'provider_sign_ins_total', labels) ?? 0) -
      (sample(before, 'provider_sign_ins_total', labels) ?? 0);
    expect(delta({ outcome: 'success', reason: 'none' })).toBe(1);
    expect(delta({ outcome: 'failure', reason: 'invalid_username_password' })).toBe(5);
    expect(delta({ outcome: 'failure', reason: 'request_limit' })).toBe(1);
    expect(delta({ outcome: 'locked', reason: 'none' })).toBe(1);
    // The harness sends webhooks nowhere: they wait for their next attempt.
    expect(sample(after, 'provider_outbox_pending', { outbox: 'webhook_outbox' })).toBeGreaterThanOrEqual(6);
    expect(
      sample(after, 'provider_outbox_oldest_pending_age_seconds', { outbox: 'webhook_outbox' }),
    ).toBeGreaterThanOrEqual(0);
    expect(sample(after, 'provider_outbox_undeliverable', { outbox: 'mail_outbox' })).toBe(0);
  });

  it('shows the database pool, the event loop lag and the process', async () => {
    const text = await scrape();
    expect(sample(text, 'provider_db_pool_connections')).toBeGreaterThanOrEqual(1);
    // Nothing waits for a connection: the scrape's own queries, queued for a moment, do not count.
    expect(sample(text, 'provider_db_pool_waiting_requests')).toBe(0);
    expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
  });
});

describe('the logs of the embedded provider', () => {
  it('name each request by the caller’s safe X-Request-Id, or a fresh one, which every answer carries', async () => {
    lines.length = 0;
    // A route of its own, oidc-provider's (the reply hijacked), and one no route has.
    const answers = await Promise.all(
      ['/healthz', '/.well-known/openid-configuration', '/made-up'].map((path, index) =>
        fetch(`${harness.baseUrl}${path}`, { headers: { 'x-request-id': `edge-${index}` } }),
      ),
    );
    const fresh = await fetch(`${harness.baseUrl}/healthz`, { headers: { 'x-request-id': 'not safe' } });
    expect(answers.map((answer) => answer.headers.get('x-request-id'))).toEqual([
      'edge-0',
      'edge-1',
      'edge-2',
    ]);
    const freshId = fresh.headers.get('x-request-id');
    expect(freshId).toMatch(/^[0-9a-f-]{36}$/);
    const logged = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'request completed')
      .map((line) => line.reqId);
    expect(new Set(logged)).toEqual(new Set(['edge-0', 'edge-1', 'edge-2', freshId]));
  });

  it('censor the provider’s own secret fields wherever a log call puts them', async () => {
    const written: string[] = [];
    const app = Fastify({
      logger: providerLoggerOptions({
        level: 'info',
        isProduction: true,
        stream: { write: (line) => written.push(line) },
      }),
    });
    app.log.info(
      { username: 'anna@example.ch', body: { code: 'auth-code-123456', code_verifier: 'verifier-123456' } },
      'careless',
    );
    await app.close();
    const log = written.join('');
    expect(log).toContain('careless');
    for (const secret of ['anna@example.ch', 'auth-code-123456', 'verifier-123456']) {
      expect(log).not.toContain(secret);
    }
  });

  it('name each request with its id, route, status and outcome, and never a password, e-mail, token or cookie', async () => {
    const email = 'log-user@example.com';
    await newUser(email);
    const token = await adminToken(harness);
    lines.length = 0;
    const browser = new TestBrowser();
    const { requestId } = await startAuthorization(harness, browser, createPkce(), { login_hint: email });
    await postLogin(harness, browser, { username: email, password: WRONG, requestId });
    const signedIn = await postLogin(harness, browser, { username: email, password: PASSWORD, requestId });
    expect(signedIn.status).toBe(303);
    const profile = await fetch(`${harness.baseUrl}/useractions-srv/userexistence`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    expect(profile.status).toBe(200);
    await fetch(`${harness.baseUrl}/session/end_session?id_token_hint=${token}&post_logout_redirect_uri=x`);

    const log = lines.join('');
    const cookies = [...signedIn.headers.getSetCookie(), ...browser.cookieHeader('/').split('; ')]
      .map((cookie) => cookie.split(';', 1)[0]?.split('=')[1] ?? '')
      .filter((value) => value.length > 8);
    for (const secret of [PASSWORD, WRONG, email, encodeURIComponent(email), token, ...cookies]) {
      expect(log).not.toContain(secret);
    }
    const login = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'request completed' && line.route === '/login-srv/login');
    expect(login).toEqual([
      expect.objectContaining({
        reqId: expect.any(String),
        statusCode: 303,
        outcome: 'failure:invalid_username_password',
      }),
      expect.objectContaining({ reqId: expect.any(String), statusCode: 303, outcome: 'success' }),
    ]);
    // The URL is there, its secrets replaced.
    expect(log).toContain('login_hint=[redacted]');
    expect(log).toContain('id_token_hint=[redacted]');
  });
});
