import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CidaasDouble } from './cidaas-double';
import {
  admin,
  login,
  newRequestId,
  PORTAL,
  type Receiver,
  startDouble,
  startReceiver,
} from './test-helpers';

// provider-protocol.md "Webhooks", the double's variant: sub only, after the answer, retried.

const API_KEY = { apiKeyHeader: 'X-API-Key', apiKey: 'hook-key' };
let double: CidaasDouble;
let receiver: Receiver;
let sub: string;

async function start(statuses: number[] = []) {
  receiver = await startReceiver(statuses);
  double = await startDouble({ webhook: { url: receiver.url, ...API_KEY } });
  sub = double.addUser({ email: 'ann@example.com', password: 'right' }).sub;
}
beforeEach(() => start());
afterEach(async () => {
  await double.close();
  await receiver.close();
});

const types = () => receiver.deliveries.map((delivery) => delivery.body.eventtype);

describe('webhooks', () => {
  it('reports a sign-in with id, type, timestamp, client and sub, never an e-mail, with the API key', async () => {
    await login(double, 'ann@example.com', 'right', await newRequestId(double));
    await double.webhooksSettled();
    const [delivery] = receiver.deliveries;
    expect(delivery?.headers['x-api-key']).toBe('hook-key');
    expect(delivery?.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      eventtype: 'LOGIN_WITH_CIDAAS',
      timestamp: expect.any(String),
      client_id: PORTAL.clientId,
      sub,
    });
    expect(new Date(String(delivery?.body.timestamp)).toISOString()).toBe(delivery?.body.timestamp);
  });

  it('reports a failure of a known user, and nothing for an unknown one', async () => {
    const requestId = await newRequestId(double);
    await login(double, 'nobody@example.com', 'x', requestId);
    await login(double, 'ann@example.com', 'wrong', requestId);
    await double.webhooksSettled();
    expect(types()).toEqual(['LOGIN_FAILURE']);
  });

  it('reports ACCOUNT_LOCKED after the failure that blocks', async () => {
    double.variants.blockAfterFailures = 1;
    await login(double, 'ann@example.com', 'wrong', await newRequestId(double));
    await double.webhooksSettled();
    expect(types()).toEqual(['LOGIN_FAILURE', 'ACCOUNT_LOCKED']);
  });

  it('reports a completed reset', async () => {
    await admin(double, 'POST', '/users-srv/resetpassword/initiate', {
      requestId: await newRequestId(double),
      email: 'ann@example.com',
      processingType: 'LINK',
      resetMedium: 'email',
    });
    const link = double.lastReset('ann@example.com');
    await admin(double, 'POST', '/users-srv/resetpassword/accept', {
      resetRequestId: link?.rprq,
      exchangeId: link?.exchangeId,
      password: 'n',
      confirmPassword: 'n',
    });
    await double.webhooksSettled();
    expect(receiver.deliveries.map((delivery) => delivery.body)).toMatchObject([
      { eventtype: 'PASSWORD_RESET', sub },
    ]);
  });

  it('sends after the answer, waiting webhookDelayMs', async () => {
    double.variants.webhookDelayMs = 300;
    const answeredAt = Date.now();
    await login(double, 'ann@example.com', 'wrong', await newRequestId(double));
    expect(receiver.deliveries).toHaveLength(0);
    await double.webhooksSettled();
    expect(receiver.deliveries[0]?.at).toBeGreaterThanOrEqual(answeredAt + 300);
  });
});

describe('webhook delivery', () => {
  it('retries a non-2xx answer with the same id', async () => {
    await double.close();
    await receiver.close();
    await start([500, 503]);
    await login(double, 'ann@example.com', 'wrong', await newRequestId(double));
    await double.webhooksSettled();
    const ids = receiver.deliveries.map((delivery) => delivery.body.id);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(1);
  });

  it('gives up after three retries, and webhooksSettled() still resolves', async () => {
    await double.close();
    await receiver.close();
    await start([500, 500, 500, 500, 500]);
    await login(double, 'ann@example.com', 'wrong', await newRequestId(double));
    await double.webhooksSettled();
    expect(receiver.deliveries).toHaveLength(4);
  });

  it('sends nothing without a webhook target', async () => {
    const quiet = await startDouble();
    quiet.addUser({ email: 'ann@example.com', password: 'right' });
    await login(quiet, 'ann@example.com', 'wrong', await newRequestId(quiet));
    await quiet.webhooksSettled();
    await quiet.close();
    expect(receiver.deliveries).toHaveLength(0);
  });
});
