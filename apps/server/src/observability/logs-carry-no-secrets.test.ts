import { freePort, type MailSink, startMailSink } from '@concierge/test-support';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  activationParams,
  insertCode,
  postPortalCall,
  register,
  uniqueEmail,
} from '../test-support/account-fixtures';
import {
  type EmbeddedProvider,
  startEmbeddedProvider,
  TEST_ADMIN_CLIENT,
} from '../test-support/embedded-provider';
import { startTestServer } from '../test-support/test-server';
import { logStart } from './start-line';

// Issue 15, logs: the server and the embedded provider (in its own process, configured as in
// production: JSON on standard output) go through every flow that carries a secret, logging at
// trace; then their log text is searched for every secret the flows used.

const PORTAL = 'http://portal.test';
const WEBHOOK_KEY = 'a-webhook-key-of-this-test-run';
const REGISTERED_PASSWORD = 'Erst-Passw0rt!';
const WRONG_PASSWORD = 'Falsch-Passw0rt?';
const NEW_PASSWORD = 'Neues-Passw0rt#';
const CALLBACK = 'http://localhost:8082/callback';
// During a rotation: two of them.
const FORM_SECRETS = ['form-secret-one-of-this-run', 'form-secret-two-of-this-run'];
// What a deployment's URLs carry: the start line logs both URLs, never these.
const SMTP_PASSWORD = 'smtp-password-of-this-run';
const DATABASE_PASSWORD = 'database-password-of-this-run';
const DATABASE_KEY_PASSWORD = 'database-key-password-of-this-run';

const serverLines: string[] = [];
let mail: MailSink;
let provider: EmbeddedProvider;
let server: Awaited<ReturnType<typeof startTestServer>>;
let serverUrl: string;
let providerMetricsUrl: string;
beforeAll(async () => {
  mail = await startMailSink();
  const taken = new Set<number>();
  const port = await freePort(taken);
  serverUrl = `http://127.0.0.1:${port}`;
  const metricsPort = await freePort(taken);
  providerMetricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  // A provider of its own, not the run's shared one: its log is read here (at trace level, from its
  // standard output), and its webhooks go to this test's server.
  provider = await startEmbeddedProvider(
    {
      LOG_LEVEL: 'trace',
      SMTP_URL: mail.url,
      PROVIDER_WEBHOOK_URL: `${serverUrl}/api/cidaas-webhook/events`,
      PROVIDER_WEBHOOK_API_KEY: WEBHOOK_KEY,
      PROVIDER_METRICS_PORT: String(metricsPort),
    },
    { captureLog: true },
  );
  server = await startTestServer(
    {
      PORTAL_URL: PORTAL,
      LOG_LEVEL: 'trace',
      WEBHOOK_API_KEY: WEBHOOK_KEY,
      FORM_SECRET: FORM_SECRETS.join(','),
    },
    {
      provider: { url: provider.url },
      smtp: { url: mail.url },
      logStream: { write: (line) => serverLines.push(line) },
    },
  );
  // The line main.ts writes at start, with the passwords a deployment's URLs have (the mail sink
  // here takes none).
  logStart(server.app.log, {
    config: {
      ...server.config,
      mail: { ...server.config.mail, smtpUrl: `smtps://mailer:${SMTP_PASSWORD}@relay.test:465` },
    },
    databaseUrl: `postgres://concierge:${DATABASE_PASSWORD}@db.test:5432/concierge?sslpassword=${DATABASE_KEY_PASSWORD}`,
    migrations: { applied: ['0001_rate_limits'], ran: ['0100_registration'], newer: [] },
  });
  await server.app.listen({ host: '127.0.0.1', port });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await provider?.stop();
  await mail?.close();
});

const page = (url: string) => server.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });

async function signInAtProvider(email: string, password: string): Promise<Response> {
  const requestId = await server.provider.generateRequestId({
    clientId: 'property-portal-demo',
    redirectUri: CALLBACK,
  });
  if (requestId.kind !== 'answer') throw new Error('no request id');
  return fetch(`${provider.url}/login-srv/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: PORTAL },
    body: new URLSearchParams({
      username: email,
      password,
      requestId: requestId.data,
      username_type: 'email',
    }),
  });
}

const until = (condition: () => Promise<boolean>) =>
  vi.waitUntil(condition, { timeout: 15_000, interval: 50 });

/** Webhook events the provider has written and not delivered yet (its outbox gauge). */
async function webhooksPending(): Promise<number> {
  const metrics = await (await fetch(providerMetricsUrl)).text();
  const pending = /^provider_outbox_pending\{outbox="webhook_outbox"\} (\S+)$/m.exec(metrics)?.[1];
  if (pending === undefined) throw new Error('the provider reports no webhook outbox');
  return Number(pending);
}

describe('the logs of the server and the embedded provider', () => {
  it('never hold a password, code, token, reset or verification id, API key or e-mail the flows used', async () => {
    const email = uniqueEmail('logged');
    const secrets: string[] = [
      REGISTERED_PASSWORD,
      WRONG_PASSWORD,
      NEW_PASSWORD,
      email,
      encodeURIComponent(email),
      WEBHOOK_KEY,
      TEST_ADMIN_CLIENT.clientSecret,
      ...server.config.adminApiTokens,
      ...FORM_SECRETS,
      SMTP_PASSWORD,
      DATABASE_PASSWORD,
      DATABASE_KEY_PASSWORD,
    ];

    // Registration with a letter's code: the page the letter links to, then the form.
    const code = await insertCode(server.db);
    secrets.push(code);
    expect(
      (await page(`/register?registrationcode=${code}&email=${encodeURIComponent(email)}&subdomain=demo`))
        .statusCode,
    ).toBe(200);
    const registered = await register(server.app, { email, code, password: REGISTERED_PASSWORD });
    expect(registered.statusCode).toBe(200);

    // Activation: the e-mailed link's page, then the call it makes.
    await server.app.backgroundJobs.outbox.runOnce();
    const link = activationParams((await mail.waitFor(email)).text);
    secrets.push(link.verificationid);
    const query = new URLSearchParams(link).toString();
    expect((await page(`/verification-complete?${query}`)).statusCode).toBe(200);
    const activated = await postPortalCall(server.app, 'activate-user-account', link);
    expect(activated.json()).toMatchObject({ success: true, data: { isAlreadyActivated: false } });

    // A wrong password at the provider's form: back to the login page with the e-mail in its query,
    // the provider's webhook to the server, and the page's question for the failure count.
    const failed = await signInAtProvider(email, WRONG_PASSWORD);
    const failedPage = new URL(failed.headers.get('location') ?? '');
    expect(failedPage.searchParams.get('error')).toBe('invalid_username_password');
    // The provider names the account (sub, q): the page first drops them from the address.
    const dropped = await page(`${failedPage.pathname}${failedPage.search}`);
    expect(dropped.statusCode).toBe(302);
    expect((await page(dropped.headers.location ?? '')).statusCode).toBe(200);
    const counter = () =>
      fetch(`${serverUrl}/user-login-failed-counter?subdomain=demo&email=${encodeURIComponent(email)}`).then(
        async (answer) => ((await answer.json()) as [{ counter: number }])[0].counter,
      );
    await until(async () => (await counter()) === 1);

    // The right password.
    const signedIn = await signInAtProvider(email, REGISTERED_PASSWORD);
    expect(new URL(signedIn.headers.get('location') ?? '').searchParams.get('error')).toBeNull();
    secrets.push(...signedIn.headers.getSetCookie().map((cookie) => cookie.split(';', 1)[0]!.split('=')[1]!));

    // Reset: initiate, the e-mailed link's page, the new password; then a sign-in with it.
    const resetRequest = await server.provider.generateRequestId({
      clientId: 'property-portal-demo',
      redirectUri: CALLBACK,
    });
    if (resetRequest.kind !== 'answer') throw new Error('no request id');
    const initiated = await postPortalCall(
      server.app,
      'password-reset-initiate',
      { requestId: resetRequest.data, email, processingType: 'LINK', resetMedium: 'email' },
      { headers: { origin: PORTAL } },
    );
    expect(initiated.statusCode).toBe(200);
    const resetMail = await mail.waitFor(email, 2);
    const resetHref = /https?:\/\/\S+\/password-set\?\S+/.exec(resetMail.text)?.[0] ?? '';
    const resetLink = new URL(resetHref);
    const rprq = resetLink.searchParams.get('rprq') ?? '';
    const exchangeId =
      resetLink.searchParams.get('exchangeId') ?? resetLink.searchParams.get('exchangeid') ?? '';
    secrets.push(rprq, exchangeId);
    expect(rprq).not.toBe('');
    expect(exchangeId).not.toBe('');
    expect((await page(`${resetLink.pathname}${resetLink.search}`)).statusCode).toBe(200);
    const setNew = await postPortalCall(
      server.app,
      'password-reset-set-new',
      {
        resetRequestId: rprq,
        exchangeId,
        password: NEW_PASSWORD,
        confirmpassword: NEW_PASSWORD,
        requestId: resetLink.searchParams.get('requestId'),
        email,
      },
      { headers: { origin: PORTAL } },
    );
    expect(setNew.statusCode).toBe(200);
    const again = await signInAtProvider(email, NEW_PASSWORD);
    expect(new URL(again.headers.get('location') ?? '').searchParams.get('error')).toBeNull();

    // The operators' admin API, with its token; a code in the path.
    const revocable = await insertCode(server.db);
    secrets.push(revocable);
    const admin = {
      authorization: `Bearer ${server.config.adminApiTokens[0]}`,
      'content-type': 'application/json',
    };
    expect(
      (await server.app.inject({ method: 'GET', url: '/api/admin/codes?tenant=demo', headers: admin }))
        .statusCode,
    ).toBe(200);
    const revoked = await server.app.inject({
      method: 'POST',
      url: `/api/admin/codes/${revocable}/revoke`,
      headers: admin,
      payload: '{}',
    });
    expect(revoked.statusCode).toBe(200);
    // cidaas may send the webhook's key in the query string instead of a header.
    const keyInQuery = await server.app.inject({
      method: 'POST',
      url: `/api/cidaas-webhook/events?X-API-Key=${WEBHOOK_KEY}`,
      payload: {
        eventtype: 'LOGIN_WITH_CIDAAS',
        createTime: new Date().toISOString(),
        email: 'nobody@example.ch',
      },
    });
    expect(keyInQuery.statusCode).toBe(200);

    // Every webhook the flows caused has arrived and been logged: each flow wrote its events before
    // it answered, and the provider's outbox holds none of them undelivered any more.
    await until(async () => (await webhooksPending()) === 0);

    const serverLog = serverLines.join('');
    const providerLog = provider.log();
    // The logs are there, as JSON lines, with what an operator needs.
    expect(serverLog).toContain('/verification-complete?');
    expect(providerLog).toContain('"route":"/login-srv/login"');
    for (const line of [...serverLines, ...providerLog.split('\n').filter(Boolean)])
      expect(() => JSON.parse(line)).not.toThrow();
    const requestLines = serverLines
      .map((line) => JSON.parse(line))
      .filter((line) => line.msg === 'request completed');
    expect(requestLines).toContainEqual(
      expect.objectContaining({
        reqId: expect.any(String),
        route: '/api/cidaas-webhook/register-user',
        statusCode: 200,
        tenant: 'demo',
        outcome: 'ok',
      }),
    );
    expect(requestLines).toContainEqual(
      expect.objectContaining({ route: '/api/cidaas-webhook/events', tenant: 'demo', outcome: 'applied' }),
    );
    expect(serverLog).toContain('verificationid=[redacted]');
    expect(serverLog).toContain('rprq=[redacted]');
    // The start line: the build, the migrations and the configuration, each secret only said to be set.
    const start = serverLines.map((line) => JSON.parse(line)).find((line) => line.build !== undefined);
    expect(start).toMatchObject({
      level: 30,
      msg: 'starting; migrations run now: 0100_registration',
      build: { version: expect.stringMatching(/^\d+\.\d+\.\d+/), commit: 'unknown', node: process.version },
      migrations: { applied: ['0001_rate_limits'], ran: ['0100_registration'], newer: [] },
      config: {
        portalUrl: PORTAL,
        providerAdmin: { clientId: server.config.providerAdmin.clientId, clientSecret: '***' },
        webhook: { apiKeys: ['***'] },
        formSecrets: ['***', '***'],
        adminApiTokens: ['***'],
        mail: { smtpUrl: 'smtps://mailer:***@relay.test:465' },
        databaseUrl: 'postgres://concierge:***@db.test:5432/concierge?sslpassword=***',
        sentMailRetentionDays: 7,
      },
    });

    for (const secret of secrets.filter((value) => value.length >= 8)) {
      expect(serverLog, `server log holds ${secret}`).not.toContain(secret);
      expect(providerLog, `provider log holds ${secret}`).not.toContain(secret);
    }
  });
});
