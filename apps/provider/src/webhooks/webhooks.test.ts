import { webhookEventSchema } from '@concierge/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminToken,
  createPkce,
  freePort,
  type ProviderHarness,
  postLogin,
  RP_CLIENT_ID,
  startAuthorization,
  startProvider,
} from '../test-support/provider-harness';
import { TestBrowser } from '../test-support/test-browser';
import { startWebhookReceiver, type WebhookReceiver } from '../test-support/webhook-receiver';
import { createUser } from '../users/users';

const PASSWORD = 'Corr3ct-Horse!';
const WRONG = 'Wr0ng-Horse!';
const API_KEY = 'test-webhook-key-0123456789';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function login(harness: ProviderHarness, email: string, password: string): Promise<Response> {
  const browser = new TestBrowser();
  const { requestId } = await startAuthorization(harness, browser, createPkce());
  return postLogin(harness, browser, { username: email, password, requestId });
}

async function newUser(harness: ProviderHarness, email: string, status: 'VERIFIED' | 'PENDING' = 'VERIFIED') {
  const created = await createUser(harness.database.db, { email, password: PASSWORD, status });
  if (!created.isCreated) throw new Error('user not created');
  return created.sub;
}

describe('webhooks to the server', () => {
  let receiver: WebhookReceiver;
  let harness: ProviderHarness;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    harness = await startProvider([], {
      env: {
        PROVIDER_WEBHOOK_URL: receiver.url,
        PROVIDER_WEBHOOK_API_KEY: API_KEY,
        PROVIDER_WEBHOOK_API_KEY_HEADER: 'X-Concierge-Key',
      },
    });
  });
  afterAll(async () => {
    await harness.close();
    await receiver.close();
  });

  it('reports a wrong password before the login answers, with the API key header', async () => {
    const email = 'wrong@example.com';
    const sub = await newUser(harness, email);
    await login(harness, 'Wrong@Example.com ', WRONG);
    // No waiting: the login waits for its own events (up to PROVIDER_WEBHOOK_WAIT_MS).
    const [event] = receiver.eventsFor(email);
    expect(event).toEqual({
      id: expect.stringMatching(UUID),
      eventtype: 'LOGIN_FAILURE',
      timestamp: expect.any(String),
      client_id: RP_CLIENT_ID,
      sub,
      email,
    });
    expect(new Date(String(event?.timestamp)).toISOString()).toBe(event?.timestamp);
    expect(webhookEventSchema.safeParse(event).success).toBe(true);
    const delivery = receiver.received.find((entry) => entry.body.id === event?.id);
    expect(delivery?.headers['x-concierge-key']).toBe(API_KEY);
    expect(delivery?.headers['content-type']).toBe('application/json');
  });

  it('reports a wrong password for an unknown e-mail without sub, e-mail normalised', async () => {
    await login(harness, ' Nobody@Example.COM', WRONG);
    const events = receiver.eventsFor('nobody@example.com');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ eventtype: 'LOGIN_FAILURE', client_id: RP_CLIENT_ID });
    expect(events[0]).not.toHaveProperty('sub');
  });

  it('reports the lock after the third failure', async () => {
    const email = 'locks@example.com';
    const sub = await newUser(harness, email);
    for (let attempt = 0; attempt < 3; attempt += 1) await login(harness, email, WRONG);
    await login(harness, email, PASSWORD);
    expect(receiver.eventsFor(email).map((event) => event.eventtype)).toEqual([
      'LOGIN_FAILURE',
      'LOGIN_FAILURE',
      'LOGIN_FAILURE',
      'ACCOUNT_LOCKED',
      'LOGIN_FAILURE',
    ]);
    expect(receiver.eventsFor(email)[3]).toMatchObject({ sub, email, client_id: RP_CLIENT_ID });
  });

  it('reports a successful sign-in', async () => {
    const email = 'success@example.com';
    const sub = await newUser(harness, email);
    expect((await login(harness, email, PASSWORD)).headers.get('location')).toContain(harness.baseUrl);
    expect(receiver.eventsFor(email)).toEqual([
      expect.objectContaining({ eventtype: 'LOGIN_WITH_CIDAAS', sub, email, client_id: RP_CLIENT_ID }),
    ]);
  });

  it('reports an activation when the admin API sets a PENDING user VERIFIED, and only then', async () => {
    const email = 'activated@example.com';
    const sub = await newUser(harness, email, 'PENDING');
    const token = await adminToken(harness);
    const patch = (status: string) =>
      fetch(`${harness.baseUrl}/user-srv/users/${sub}/status`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ status }),
      });
    expect((await patch('VERIFIED')).status).toBe(200);
    const [event] = await receiver.waitFor(email, 1);
    expect(event).toMatchObject({
      eventtype: 'ACCOUNT_ACTIVATED',
      sub,
      email,
      client_id: harness.config.adminClient.clientId,
    });
    await patch('VERIFIED');
    await patch('DECLINED');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.eventsFor(email)).toHaveLength(1);
  });

  it('stores every event in the outbox and marks it delivered', async () => {
    const pending = await harness.database.db
      .selectFrom('webhook_outbox')
      .select('id')
      .where('delivered_at', 'is', null)
      .execute();
    expect(pending).toEqual([]);
    const delivered = await harness.database.db.selectFrom('webhook_outbox').select('id').execute();
    expect(new Set(delivered.map((row) => row.id))).toEqual(
      new Set(receiver.received.map((entry) => entry.body.id)),
    );
  });
});

describe('webhook delivery when the server is slow or down', () => {
  it('delivers an event later to a receiver that was down at first', async () => {
    const port = await freePort();
    const harness = await startProvider([], {
      env: { PROVIDER_WEBHOOK_URL: `http://127.0.0.1:${port}/api/cidaas-webhook/events` },
    });
    let receiver: WebhookReceiver | undefined;
    try {
      await login(harness, 'later@example.com', WRONG);
      const [row] = await harness.database.db.selectFrom('webhook_outbox').selectAll().execute();
      expect(row).toMatchObject({ attempts: 1, delivered_at: null, given_up_at: null });
      expect(row?.last_error).toBeTruthy();

      receiver = await startWebhookReceiver({ port });
      const [event] = await receiver.waitFor('later@example.com', 1);
      expect(event).toMatchObject({ id: row?.id, eventtype: 'LOGIN_FAILURE' });
    } finally {
      await harness.close();
      await receiver?.close();
    }
  });

  it('answers the login after a bounded wait when the receiver is slow, and delivers anyway', async () => {
    const receiver = await startWebhookReceiver({ delayMs: () => 1500 });
    const harness = await startProvider([], {
      env: { PROVIDER_WEBHOOK_URL: receiver.url, PROVIDER_WEBHOOK_WAIT_MS: '200' },
    });
    try {
      const browser = new TestBrowser();
      const { requestId } = await startAuthorization(harness, browser, createPkce());
      const startedAt = Date.now();
      const response = await postLogin(harness, browser, {
        username: 'slow@example.com',
        password: WRONG,
        requestId,
      });
      expect(response.status).toBe(303);
      expect(Date.now() - startedAt).toBeLessThan(1200);
      expect(receiver.eventsFor('slow@example.com')).toHaveLength(0);
      await receiver.waitFor('slow@example.com', 1);
    } finally {
      await harness.close();
      await receiver.close();
    }
  });
});
