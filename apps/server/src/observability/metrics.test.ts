import { randomUUID } from 'node:crypto';
import { type MetricsServer, startMetricsServer } from '@concierge/observability';
import { metricSample as sample, scrapeMetrics } from '@concierge/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import serverPackage from '../../package.json' with { type: 'json' };
import { enqueueMail } from '../outbox/mail-outbox';
import { insertCode, register, uniqueEmail } from '../test-support/account-fixtures';
import { type FakeProvider, startFakeProvider } from '../test-support/fake-provider';
import { startTestServer } from '../test-support/test-server';

// The server's /metrics as an operator reads it: on its own port, after requests, failed sign-ins and
// provider calls, the series move by what happened. The metrics port itself and what every app's
// registry has are tested with packages/observability.

const API_KEY = 'metrics-test-webhook-key';
let fake: FakeProvider;
let server: Awaited<ReturnType<typeof startTestServer>>;
let metrics: MetricsServer;
beforeAll(async () => {
  // A provider that is down: every call but the token's answers 503.
  fake = await startFakeProvider({ kind: '503' });
  server = await startTestServer(
    { WEBHOOK_API_KEY: API_KEY, BUILD_COMMIT: '1c46368' },
    { provider: { url: fake.url } },
  );
  metrics = await startMetricsServer(server.app.metrics.registry, { host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await metrics?.close();
  await server?.close();
  await fake?.close();
});

const scrape = () => scrapeMetrics(metrics.url);

function failedSignIn(email: string, id = randomUUID(), secondsAgo = 2) {
  return server.app.inject({
    method: 'POST',
    url: '/api/cidaas-webhook/events',
    headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
    payload: {
      id,
      eventtype: 'LOGIN_FAILURE',
      timestamp: new Date(Date.now() - secondsAgo * 1000).toISOString(),
      client_id: 'property-portal-demo',
      email,
    },
  });
}

describe('/metrics', () => {
  it('is served on its own port only: the public port has none', async () => {
    const onPublicPort = await server.app.inject({ method: 'GET', url: '/metrics' });
    expect(onPublicPort.statusCode).toBe(404);
    expect(onPublicPort.body).not.toContain('concierge_');
    expect(await scrape()).toContain('concierge_');
  });

  it('names what runs: the server package’s version, the commit of BUILD_COMMIT and the Node.js', async () => {
    const text = await scrape();
    const labels = { version: serverPackage.version, commit: '1c46368', node: process.version };
    expect(sample(text, 'concierge_build_info', labels)).toBe(1);
    expect(text.split('\n').filter((line) => line.startsWith('concierge_build_info{'))).toHaveLength(1);
  });

  it('counts requests by route pattern and status, never by the URL', async () => {
    const series = (status: string) => ({ method: 'GET', route: '/messages/:language', status_code: status });
    const before = await scrape();
    for (const language of ['de', 'fr']) {
      const answer = await server.app.inject({ url: `/messages/${language}?namespaces=register` });
      expect(answer.statusCode).toBe(200);
    }
    expect((await server.app.inject({ url: '/messages/xx?namespaces=register' })).statusCode).toBe(404);
    const after = await scrape();
    const count = 'concierge_http_request_duration_seconds_count';
    expect((sample(after, count, series('200')) ?? 0) - (sample(before, count, series('200')) ?? 0)).toBe(2);
    expect((sample(after, count, series('404')) ?? 0) - (sample(before, count, series('404')) ?? 0)).toBe(1);
    expect(
      sample(after, 'concierge_http_request_duration_seconds_bucket', { ...series('200'), le: '+Inf' }),
    ).toBe(sample(after, count, series('200')));
    expect(after).not.toContain('/messages/de');
  });

  it('counts failed sign-ins per tenant with the webhook lag, once per event, and the lock they ask for', async () => {
    const email = uniqueEmail('failing');
    const before = await scrape();
    const first = randomUUID();
    expect((await failedSignIn(email, first)).statusCode).toBe(200);
    expect((await failedSignIn(email, first)).statusCode).toBe(200);
    expect((await failedSignIn(email)).statusCode).toBe(200);
    expect((await failedSignIn(email)).statusCode).toBe(200);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) =>
      (sample(after, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);

    expect(delta('concierge_sign_in_failures_total', { tenant: 'demo' })).toBe(3);
    expect(delta('concierge_webhook_events_total', { eventtype: 'LOGIN_FAILURE', outcome: 'applied' })).toBe(
      3,
    );
    expect(
      delta('concierge_webhook_events_total', { eventtype: 'LOGIN_FAILURE', outcome: 'duplicate' }),
    ).toBe(1);
    expect(delta('concierge_webhook_lag_seconds_count', { eventtype: 'LOGIN_FAILURE' })).toBe(4);
    // Each event was 2 s old when it came in.
    expect(delta('concierge_webhook_lag_seconds_sum', { eventtype: 'LOGIN_FAILURE' })).toBeGreaterThanOrEqual(
      8,
    );
    // The third asked for a lock; the provider is down, so it waits, pending.
    expect(sample(after, 'concierge_account_locks', { state: 'requested' })).toBe(1);
    expect(delta('concierge_account_locks_requested_total', { tenant: 'demo' })).toBe(1);
    expect(delta('concierge_account_lock_applications_total', { outcome: 'failed' })).toBe(1);
    expect(sample(after, 'concierge_account_locks', { state: 'locked' })).toBe(0);
    expect(
      delta('concierge_provider_call_duration_seconds_count', {
        operation: 'user_existence',
        outcome: 'unknown',
      }),
    ).toBe(1);
  });

  it('counts provider calls by operation and outcome, with their retries', async () => {
    const before = await scrape();
    const answer = await register(server.app, { email: uniqueEmail(), code: await insertCode(server.db) });
    expect(answer.statusCode).toBe(503);
    expect(answer.json()).toMatchObject({ error: { code: 'provider_unreachable' } });
    const after = await scrape();
    const labels = { operation: 'user_existence', outcome: 'unknown' };
    const count = 'concierge_provider_call_duration_seconds_count';
    expect((sample(after, count, labels) ?? 0) - (sample(before, count, labels) ?? 0)).toBe(1);
    const retries = 'concierge_provider_call_retries_total';
    const retried = { operation: 'user_existence' };
    expect((sample(after, retries, retried) ?? 0) - (sample(before, retries, retried) ?? 0)).toBe(1);
    expect(sample(after, count, { operation: 'token', outcome: 'answer' })).toBe(1);
  });

  it('shows the outbox: e-mails waiting, the oldest one’s age, and those given up', async () => {
    const before = await scrape();
    const mail = {
      kind: 'activation',
      to: uniqueEmail(),
      subject: 's',
      html: '<p>h</p>',
      text: 't',
    } as const;
    const waiting = await enqueueMail(server.db, mail);
    const givenUp = await enqueueMail(server.db, mail);
    await server.db
      .updateTable('mail_outbox')
      .set({ created_at: new Date(Date.now() - 600_000) })
      .where('id', '=', waiting)
      .execute();
    await server.db
      .updateTable('mail_outbox')
      .set({ next_attempt_at: null })
      .where('id', '=', givenUp)
      .execute();
    const after = await scrape();
    expect(
      (sample(after, 'concierge_outbox_pending') ?? 0) - (sample(before, 'concierge_outbox_pending') ?? 0),
    ).toBe(1);
    expect(sample(after, 'concierge_outbox_undeliverable')).toBe(
      (sample(before, 'concierge_outbox_undeliverable') ?? 0) + 1,
    );
    expect(sample(after, 'concierge_outbox_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(600);
  });

  it('shows the database pool, the event loop lag and the process', async () => {
    const text = await scrape();
    expect(sample(text, 'concierge_db_pool_connections')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'concierge_db_pool_idle_connections')).toBeGreaterThanOrEqual(0);
    // Nothing waits for a connection: the scrape's own outbox and lock queries do not count.
    expect(sample(text, 'concierge_db_pool_waiting_requests')).toBe(0);
    expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  // Last: it leaves the breaker open.
  it('shows the circuit breaker open once the provider failed repeatedly, and the calls it held back', async () => {
    expect(sample(await scrape(), 'concierge_provider_breaker_state')).toBe(0);
    for (let call = 0; call < 5; call += 1) {
      await register(server.app, { email: uniqueEmail(), code: await insertCode(server.db) });
    }
    const text = await scrape();
    expect(sample(text, 'concierge_provider_breaker_state')).toBe(1);
    expect(sample(text, 'concierge_provider_breaker_opened_total')).toBe(1);
    expect(
      sample(text, 'concierge_provider_calls_rejected_total', { operation: 'user_existence' }),
    ).toBeGreaterThan(0);
  });
});
