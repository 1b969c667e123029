import { webhookEventSchema } from '@concierge/contracts';
import { freePort } from '@concierge/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminToken,
  createPkce,
  type ProviderHarness,
  postLogin,
  RP_CLIENT_ID,
  startAuthorization,
  startProvider,
} from '../test-support/provider-harness';
import { TestBrowser } from '../test-support/test-browser';
import { waitUntil } from '../test-support/wait-until';
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
        PROVIDER_BLOCK_AFTER_FAILURES: '3',
      },
    });
  });
  afterAll(async () => {
    await harness.close();
    await receiver.close();
  });

  /**
   * The events for this e-mail once every event is delivered: a login writes its events to the outbox
   * before it answers, so when none is left undelivered, none of them can still arrive.
   */
  async function allEventsFor(email: string): Promise<Record<string, unknown>[]> {
    await waitUntil('every event is delivered', async () => {
      const pending = await harness.database.db
        .selectFrom('webhook_outbox')
        .select('id')
        .where('delivered_at', 'is', null)
        .execute();
      return pending.length === 0;
    });
    return receiver.eventsFor(email);
  }

  it('reports a wrong password of a known user with sub and e-mail, with the API key header', async () => {
    const email = 'wrong@example.com';
    const sub = await newUser(harness, email);
    await login(harness, 'Wrong@Example.com ', WRONG);
    const [event] = await receiver.waitFor(email, 1);
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
    const events = await allEventsFor('nobody@example.com');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ eventtype: 'LOGIN_FAILURE', client_id: RP_CLIENT_ID });
    expect(events[0]).not.toHaveProperty('sub');
  });

  it('reports the block after the third failure (PROVIDER_BLOCK_AFTER_FAILURES=3)', async () => {
    const email = 'locks@example.com';
    const sub = await newUser(harness, email);
    for (let attempt = 0; attempt < 3; attempt += 1) await login(harness, email, WRONG);
    await login(harness, email, PASSWORD);
    // Each login's events are delivered in the background, so two logins' may arrive interleaved.
    const events = await allEventsFor(email);
    expect(events.map((event) => event.eventtype).sort()).toEqual([
      'ACCOUNT_LOCKED',
      'LOGIN_FAILURE',
      'LOGIN_FAILURE',
      'LOGIN_FAILURE',
      'LOGIN_FAILURE',
    ]);
    expect(events.find((event) => event.eventtype === 'ACCOUNT_LOCKED')).toMatchObject({
      sub,
      email,
      client_id: RP_CLIENT_ID,
    });
  });

  it('reports a successful sign-in', async () => {
    const email = 'success@example.com';
    const sub = await newUser(harness, email);
    expect((await login(harness, email, PASSWORD)).headers.get('location')).toContain(harness.baseUrl);
    expect(await allEventsFor(email)).toEqual([
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
    expect((await patch('VERIFIED')).status).toBe(400);
    expect((await patch('DECLINED')).status).toBe(200);
    expect((await patch('VERIFIED')).status).toBe(200);
    // Only the PENDING → VERIFIED change wrote an event: the outbox holds one for this user.
    expect(await eventTypesInOutbox(email)).toEqual(['ACCOUNT_ACTIVATED']);
  });

  it('reports an activation when the admin API marks the e-mail verified, once', async () => {
    const email = 'self-registered@example.com';
    const created = await createUser(harness.database.db, {
      email,
      password: PASSWORD,
      status: 'VERIFIED',
      email_verified: false,
    });
    if (!created.isCreated) throw new Error('user not created');
    const token = await adminToken(harness);
    const markVerified = () =>
      fetch(`${harness.baseUrl}/user-srv/users/${created.sub}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ userData: { provider: 'self', email_verified: true } }),
      });
    expect((await markVerified()).status).toBe(200);
    expect(await receiver.waitFor(email, 1)).toEqual([
      expect.objectContaining({
        eventtype: 'ACCOUNT_ACTIVATED',
        sub: created.sub,
        email,
        client_id: harness.config.adminClient.clientId,
      }),
    ]);
    expect((await markVerified()).status).toBe(200);
    expect(await eventTypesInOutbox(email)).toEqual(['ACCOUNT_ACTIVATED']);
  });

  async function eventTypesInOutbox(email: string): Promise<unknown[]> {
    const rows = await harness.database.db.selectFrom('webhook_outbox').select('payload').execute();
    return rows
      .map((row) => row.payload)
      .filter((event) => event.email === email)
      .map((event) => event.eventtype);
  }

  it('stores every event in the outbox and marks it delivered', async () => {
    // Deliveries run in the background: wait until the last of them is marked.
    const pending = () =>
      harness.database.db
        .selectFrom('webhook_outbox')
        .select('id')
        .where('delivered_at', 'is', null)
        .execute();
    await waitUntil('every event is delivered', async () => (await pending()).length === 0);
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
      const rows = () => harness.database.db.selectFrom('webhook_outbox').selectAll().execute();
      await waitUntil('the first delivery has failed', async () => (await rows())[0]?.attempts === 1);
      const [row] = await rows();
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

  it('answers the login at once when the receiver is slow, and delivers anyway', async () => {
    // The receiver answers nothing until released.
    const receiver = await startWebhookReceiver({ isHolding: true });
    const harness = await startProvider([], { env: { PROVIDER_WEBHOOK_URL: receiver.url } });
    try {
      const browser = new TestBrowser();
      const { requestId } = await startAuthorization(harness, browser, createPkce());
      const response = await postLogin(harness, browser, {
        username: 'slow@example.com',
        password: WRONG,
        requestId,
      });
      expect(response.status).toBe(303);
      // The login has answered while its event's first delivery is still waiting for the receiver. Had
      // the login waited for the delivery, it could only have answered once the sender gave up on it
      // (closing the connection), and a delivery waiting now would be a later attempt.
      await waitUntil('the delivery waits for the receiver', () => receiver.waiting() === 1);
      expect(receiver.arrivals()).toBe(1);
      expect(receiver.eventsFor('slow@example.com')).toHaveLength(0);
      receiver.release();
      await receiver.waitFor('slow@example.com', 1);
    } finally {
      await harness.close();
      await receiver.close();
    }
  });
});
