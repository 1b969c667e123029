import { afterEach, describe, expect, it } from 'vitest';
import type { CidaasDouble, CidaasDoubleVariants } from './cidaas-double';
import {
  admin,
  login,
  newRequestId,
  PORTAL,
  type Receiver,
  startDouble,
  startReceiver,
} from './test-helpers';

// The double's webhooks in each variant (types.ts names the sources). The server's intake of them is
// proven in routes/cidaas-webhook and against-recorded-cidaas.test.ts.

const KEY = { apiKeyHeader: 'X-API-Key', apiKey: 'hook-key' };
let double: CidaasDouble;
let receiver: Receiver;
let sub: string;

async function start(variants: Partial<CidaasDoubleVariants> = {}, statuses: number[] = []) {
  receiver = await startReceiver(statuses);
  double = await startDouble({ webhook: { url: receiver.url, ...KEY }, variants });
  sub = double.addUser({ email: 'ann@example.com', password: 'right' }).sub;
}
afterEach(async () => {
  await double.close();
  await receiver.close();
});

async function signIn(password: string, email = 'ann@example.com') {
  await login(double, email, password, await newRequestId(double));
  await double.webhooksSettled();
}
const bodies = () => receiver.deliveries.map((delivery) => delivery.body);

describe('webhook bodies', () => {
  it('sends the documented body by default: no id, timestamp, sub or e-mail; the key in its header', async () => {
    await start();
    await signIn('right');
    const [delivery] = receiver.deliveries;
    expect(delivery?.headers['x-api-key']).toBe('hook-key');
    expect(delivery?.body).toEqual({
      eventtype: 'LOGIN_WITH_CIDAAS',
      createTime: expect.any(String),
      client_id: PORTAL.clientId,
      tenantKey: 'double',
      actorId: sub,
      objectId: sub,
      objectType: 'USER',
      metaData: {},
    });
    expect(new Date(String(delivery?.body.createTime)).toISOString()).toBe(delivery?.body.createTime);
  });

  it("sends the embedded provider's body in the variant 'with-id', the key in the query in 'query'", async () => {
    await start({ webhookBody: 'with-id', webhookKeyPlacement: 'query' });
    await signIn('wrong');
    const [delivery] = receiver.deliveries;
    expect(delivery?.headers['x-api-key']).toBeUndefined();
    expect(delivery?.url.searchParams.get('X-API-Key')).toBe('hook-key');
    expect(delivery?.body).toEqual({
      id: expect.any(String),
      eventtype: 'LOGIN_FAILURE',
      timestamp: expect.any(String),
      client_id: PORTAL.clientId,
      sub,
    });
  });

  it('reports a known user’s failure and the block it causes, nothing for an unknown e-mail, and a reset', async () => {
    await start({ blockAfterFailures: 1 });
    await signIn('x', 'nobody@example.com');
    await signIn('wrong');
    await admin(double, 'POST', '/users-srv/resetpassword/initiate', {
      requestId: await newRequestId(double),
      email: 'ann@example.com',
      processingType: 'LINK',
      resetMedium: 'email',
    });
    const link = double.lastReset('ann@example.com')!;
    const accept = {
      resetRequestId: link.rprq,
      exchangeId: link.exchangeId,
      password: 'n',
      confirmPassword: 'n',
    };
    await admin(double, 'POST', '/users-srv/resetpassword/accept', accept);
    await double.webhooksSettled();
    expect(bodies().map((body) => [body.eventtype, body.actorId])).toEqual([
      ['LOGIN_FAILURE', sub],
      ['ACCOUNT_LOCKED', sub],
      ['PASSWORD_RESET', sub],
    ]);
  });

  it('sends after the answer, waiting webhookDelayMs; nothing without a target', async () => {
    await start({ webhookDelayMs: 300 });
    const answeredAt = Date.now();
    await login(double, 'ann@example.com', 'wrong', await newRequestId(double));
    expect(receiver.deliveries).toHaveLength(0);
    await double.webhooksSettled();
    expect(receiver.deliveries[0]?.at).toBeGreaterThanOrEqual(answeredAt + 300);

    const quiet = await startDouble();
    quiet.addUser({ email: 'ann@example.com', password: 'right' });
    await login(quiet, 'ann@example.com', 'wrong', await newRequestId(quiet));
    await quiet.webhooksSettled();
    await quiet.close();
    expect(receiver.deliveries).toHaveLength(1);
  });
});

describe('webhook delivery', () => {
  it('retries every answer but 200 after each pause, with the same body, and gives up after the last', async () => {
    await start({ webhookRetryPausesMs: [30, 60, 90] }, [500, 201, 401, 503, 200]);
    await signIn('wrong');
    const { deliveries } = receiver;
    expect(deliveries).toHaveLength(4);
    expect(new Set(deliveries.map((delivery) => JSON.stringify(delivery.body))).size).toBe(1);
    const gaps = deliveries.slice(1).map((delivery, index) => delivery.at - deliveries[index]!.at);
    for (const [index, gap] of gaps.entries()) expect(gap).toBeGreaterThanOrEqual([30, 60, 90][index]! - 5);
  });

  it('stops at the first 200', async () => {
    await start({ webhookBody: 'with-id' }, [500]);
    await signIn('wrong');
    expect(receiver.deliveries.map((delivery) => delivery.body.id)).toEqual([
      receiver.deliveries[0]?.body.id,
      receiver.deliveries[0]?.body.id,
    ]);
  });
});
