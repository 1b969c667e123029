import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCounter } from '../../accounts/protection/failed-login-counter';
import { ProviderClient } from '../../provider-client/provider-client';
import { type CidaasDouble, startCidaasDouble } from '../../test-support/cidaas-double/cidaas-double';
import { startEmbeddedProvider, TEST_ADMIN_CLIENT } from '../../test-support/embedded-provider';
import { seedAccountProtection } from '../../test-support/protection-fixtures';
import { startTestServer } from '../../test-support/test-server';

const API_KEY = 'webhook-test-key-0123456789';
// Beside it, as during a rotation (docs/operations.md, "Rotating a secret").
const NEXT_KEY = 'next-webhook-test-key-9876543210';
const logLines: string[] = [];
let double: CidaasDouble;
let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  // Events that name only a sub are looked up at the provider: the recorded-cidaas double here.
  double = await startCidaasDouble({
    clientCredentials: TEST_ADMIN_CLIENT,
    clients: [
      { clientId: 'property-portal-demo', hostedPageUrl: 'http://portal.test/login', redirectUris: [] },
    ],
  });
  server = await startTestServer(
    { WEBHOOK_API_KEY: `${API_KEY},${NEXT_KEY}` },
    { provider: { url: double.url }, logStream: { write: (line) => logLines.push(line) } },
  );
});
afterAll(async () => {
  await server?.close();
  await double?.close();
});

type EventBody = Record<string, unknown> & { id: string };

function event(
  eventtype: string,
  email: string | undefined,
  fields: Record<string, unknown> = {},
): EventBody {
  return {
    id: randomUUID(),
    eventtype,
    timestamp: new Date().toISOString(),
    client_id: 'property-portal-demo',
    sub: 'sub-of-the-user',
    ...(email === undefined ? {} : { email }),
    ...fields,
  };
}

function deliver(body: unknown, headers: Record<string, string> = { 'x-api-key': API_KEY }) {
  return server.app.inject({
    method: 'POST',
    url: '/api/cidaas-webhook/events',
    headers,
    payload: body as object,
  });
}

/** What the login page's counter says for the e-mail, in any tenant. */
async function countOf(email: string): Promise<number> {
  return (await readCounter(server.db, email)).counter;
}

async function isRecorded(id: string): Promise<boolean> {
  const row = await server.db
    .selectFrom('processed_webhook_events')
    .select('id')
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

describe('POST /api/cidaas-webhook/events: the API key', () => {
  it.each([
    ['missing', {}],
    ['wrong', { 'x-api-key': 'webhook-test-key-0123456780' }],
    ['empty', { 'x-api-key': '' }],
    ['in another header', { authorization: API_KEY }],
  ])('refuses a %s key with a 401 envelope and records nothing', async (_case, headers) => {
    const body = event('LOGIN_FAILURE', 'key@example.ch');
    const response = await deliver(body, headers as Record<string, string>);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ success: false, status: 401, error: { code: 'unauthorized' } });
    expect(await isRecorded(body.id)).toBe(false);
    expect(await countOf('key@example.ch')).toBe(0);
  });

  it('takes either key during a rotation; a third is refused 401, warned of without it, counted, and records nothing', async () => {
    const refusals = async () =>
      (await server.app.metrics.authRefusals.get()).values.find((value) => value.labels.surface === 'webhook')
        ?.value ?? 0;
    const refusalsBefore = await refusals();
    for (const key of [API_KEY, NEXT_KEY]) {
      expect(
        (await deliver(event('LOGIN_FAILURE', 'rotation@example.ch'), { 'x-api-key': key })).statusCode,
      ).toBe(200);
    }
    expect(await countOf('rotation@example.ch')).toBe(2);
    const third = 'third-webhook-test-key-000000';
    const body = event('LOGIN_FAILURE', 'rotation@example.ch');
    const refused = await deliver(body, { 'x-api-key': third });
    expect(refused.statusCode).toBe(401);
    expect(await isRecorded(body.id)).toBe(false);
    expect(await countOf('rotation@example.ch')).toBe(2);
    expect(await refusals()).toBe(refusalsBefore + 1);
    const warning = logLines
      .map((line) => JSON.parse(line))
      .find((line) => line.reqId === refused.headers['x-request-id'] && line.level === 40);
    expect(warning).toMatchObject({ msg: 'webhook refused: missing or wrong API key', keyPresented: true });
    expect(logLines.join('\n')).not.toContain(third);
  });

  it('accepts the right key in the configured header, whatever its case', async () => {
    const response = await deliver(event('LOGIN_FAILURE', 'key@example.ch'), { 'X-API-KEY': API_KEY });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, status: 200, data: { outcome: 'applied' } });
    expect(await countOf('key@example.ch')).toBe(1);
  });

  it('takes the key from the header configuration names', async () => {
    const custom = await startTestServer({
      WEBHOOK_API_KEY: API_KEY,
      WEBHOOK_API_KEY_HEADER: 'X-Cidaas-Key',
    });
    try {
      const inject = (headers: Record<string, string>) =>
        custom.app.inject({
          method: 'POST',
          url: '/api/cidaas-webhook/events',
          headers,
          payload: event('LOGIN_FAILURE', 'header@example.ch'),
        });
      expect((await inject({ 'x-api-key': API_KEY })).statusCode).toBe(401);
      expect((await inject({ 'x-cidaas-key': API_KEY })).statusCode).toBe(200);
    } finally {
      await custom.close();
    }
  });
});

describe('POST /api/cidaas-webhook/events: deduplication', () => {
  it('counts the same event delivered twice once', async () => {
    const body = event('LOGIN_FAILURE', 'twice@example.ch');
    expect((await deliver(body)).json().data.outcome).toBe('applied');
    const again = await deliver(body);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.outcome).toBe('duplicate');
    expect(await countOf('twice@example.ch')).toBe(1);
  });

  it('counts the same event delivered in parallel once, and distinct parallel events each', async () => {
    const body = event('LOGIN_FAILURE', 'parallel@example.ch');
    const answers = await Promise.all(Array.from({ length: 8 }, () => deliver(body)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(8).fill(200));
    expect(answers.filter((answer) => answer.json().data.outcome === 'applied')).toHaveLength(1);
    expect(await countOf('parallel@example.ch')).toBe(1);

    await Promise.all(
      Array.from({ length: 5 }, () => deliver(event('LOGIN_FAILURE', 'parallel@example.ch'))),
    );
    expect(await countOf('parallel@example.ch')).toBe(6);
  });
});

describe('POST /api/cidaas-webhook/events: the effect of each event type', () => {
  it('counts LOGIN_FAILURE per account, through whichever tenant, e-mail normalised', async () => {
    await deliver(event('LOGIN_FAILURE', '  Anna.Muster@Example.CH '));
    await deliver(event('LOGIN_FAILURE', 'anna.muster@example.ch', { client_id: 'property-portal-r5' }));
    expect(await countOf('anna.muster@example.ch')).toBe(2);
  });

  it.each(['LOGIN_WITH_CIDAAS', 'ACCOUNT_ACTIVATED', 'PASSWORD_RESET'])(
    '%s ends the count in every tenant',
    async (eventtype) => {
      const email = `${eventtype.toLowerCase()}@example.ch`;
      await deliver(event('LOGIN_FAILURE', email));
      await deliver(event('LOGIN_FAILURE', email, { client_id: 'property-portal-it2' }));
      expect(await countOf(email)).toBe(2);
      // The provider reports an activation with its admin client's id: no tenant has it.
      await deliver(event(eventtype, email, { client_id: 'concierge-server' }));
      expect(await countOf(email)).toBe(0);
    },
  );

  it('ACCOUNT_LOCKED says "locked" for the account from then on', async () => {
    await deliver(event('LOGIN_FAILURE', 'locked@example.ch'));
    await deliver(event('ACCOUNT_LOCKED', 'locked@example.ch'));
    expect(await countOf('locked@example.ch')).toBe(3);
  });

  it('counts events of an unknown client too', async () => {
    await deliver(event('LOGIN_FAILURE', 'stranger@example.ch', { client_id: 'client-not-in-registry' }));
    expect(await countOf('stranger@example.ch')).toBe(1);
  });

  it('resolves an event that names only the sub to the account, and counts it', async () => {
    const { sub } = double.addUser({ email: 'Only.Sub@example.ch', password: 'Start-Pass1' });
    const response = await deliver(event('LOGIN_FAILURE', undefined, { sub }));
    expect(response.json().data.outcome).toBe('applied');
    expect(await countOf('only.sub@example.ch')).toBe(1);
  });

  it('asks for the event again when the provider cannot say whose sub it is, and records nothing', async () => {
    const offline = await startTestServer({ WEBHOOK_API_KEY: API_KEY, PROVIDER_URL: 'http://127.0.0.1:9' });
    try {
      const body = event('LOGIN_FAILURE', undefined);
      const response = await offline.app.inject({
        method: 'POST',
        url: '/api/cidaas-webhook/events',
        headers: { 'x-api-key': API_KEY },
        payload: body,
      });
      expect(response.statusCode).toBe(503);
      const recorded = await offline.db.selectFrom('processed_webhook_events').selectAll().execute();
      expect(recorded).toEqual([]);
    } finally {
      await offline.close();
    }
  });

  it('locks the account at the provider at the third failure', async () => {
    const { sub } = double.addUser({
      email: 'third@example.ch',
      password: 'Start-Pass1',
      email_verified: true,
    });
    for (let failure = 1; failure <= 3; failure += 1) {
      expect(double.user('third@example.ch')).toMatchObject({ userStatus: 'VERIFIED' });
      await deliver(event('LOGIN_FAILURE', undefined, { sub }));
    }
    expect(double.user('third@example.ch')).toMatchObject({ userStatus: 'DECLINED' });
    const lock = await server.db
      .selectFrom('account_protection')
      .selectAll()
      .where('email', '=', 'third@example.ch')
      .execute();
    expect(lock).toEqual([expect.objectContaining({ sub, lock_state: 'locked', lock_is_ours: true })]);
  });

  it('lifts its lock when the provider reports a reset completed elsewhere', async () => {
    const { sub } = double.addUser({
      email: 'elsewhere@example.ch',
      password: 'Start-Pass1',
      email_verified: true,
    });
    for (let failure = 1; failure <= 3; failure += 1)
      await deliver(event('LOGIN_FAILURE', undefined, { sub }));
    expect(double.user('elsewhere@example.ch')).toMatchObject({ userStatus: 'DECLINED' });
    const response = await deliver(event('PASSWORD_RESET', undefined, { sub }));
    expect(response.statusCode).toBe(200);
    expect(double.user('elsewhere@example.ch')).toMatchObject({ userStatus: 'VERIFIED' });
    expect(await countOf('elsewhere@example.ch')).toBe(0);
  });

  it('acknowledges unknown event types and events of no account, and changes nothing', async () => {
    const unknownType = event('USER_DELETED', 'ignored@example.ch');
    const onlySub = event('LOGIN_FAILURE', undefined);
    for (const body of [unknownType, onlySub]) {
      const response = await deliver(body);
      expect(response.statusCode).toBe(200);
      expect(response.json().data.outcome).toBe('ignored');
      expect(await isRecorded(body.id)).toBe(false);
    }
    expect(await countOf('ignored@example.ch')).toBe(0);
  });

  it('parses tolerantly: extra fields and nulls are fine', async () => {
    const response = await deliver({
      ...event('LOGIN_FAILURE', 'tolerant@example.ch'),
      timestamp: null,
      sub: null,
      tenant_key: 'concierge',
      userInfo: { given_name: 'Anna' },
    });
    expect(response.statusCode).toBe(200);
    expect(await countOf('tolerant@example.ch')).toBe(1);
  });

  it.each([
    '-271821-04-20T00:00:00.000Z',
    '+275760-09-13T00:00:00.000Z',
    '0',
    '99999999999999999999',
    'yesterday',
  ])('counts an event whose time is %s as arriving now, never a 5xx', async (createTime) => {
    const email = `time-${randomUUID().slice(0, 8)}@example.ch`;
    const response = await deliver({
      eventtype: 'LOGIN_FAILURE',
      createTime,
      client_id: 'property-portal-demo',
      email,
    });
    expect(response.statusCode).toBe(200);
    expect(await countOf(email)).toBe(1);
  });

  it.each([
    ['no event type', { id: randomUUID() }],
    ['a time that is neither text nor a number', { eventtype: 'LOGIN_FAILURE', createTime: { at: 1 } }],
    ['not an object', ['LOGIN_FAILURE']],
  ])('answers a body with %s with a 400 envelope', async (_case, body) => {
    const response = await deliver(body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      success: false,
      status: 400,
      error: { code: 'invalid_request' },
    });
  });
});

async function processedEventCount(): Promise<number> {
  const row = await server.db
    .selectFrom('processed_webhook_events')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Issue "Hardening": the intake refuses unsafe text only in the fields it reads. cidaas sends more
 * (a user agent, a description) and could send a line break there: refusing that event would refuse
 * it for ever, the provider retrying and the server refusing.
 */
describe('POST /api/cidaas-webhook/events: unsafe text', () => {
  const UNSAFE: [string, string][] = [
    ['a line break', 'Mozilla/5.0\nsecond line'],
    ['a NUL', 'before\u0000after'],
    ['a lone surrogate', 'half \ud800 a pair'],
  ];

  it.each(UNSAFE)('accepts and counts an event with %s in fields it ignores', async (_case, value) => {
    const email = `ignored-${randomUUID().slice(0, 8)}@example.ch`;
    const body = event('LOGIN_FAILURE', email, {
      user_agent: value,
      description: value,
      userInfo: { given_name: value, devices: [{ name: value }] },
      [`field${value}`]: 'its name is the unsafe part',
    });
    const response = await deliver(body);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, status: 200, data: { outcome: 'applied' } });
    expect(await isRecorded(body.id)).toBe(true);
    expect(await countOf(email)).toBe(1);
  });

  it.each(
    ['id', 'eventtype', 'timestamp', 'client_id', 'sub', 'email'].flatMap((field) =>
      UNSAFE.map(([name, value]): [string, string, string] => [field, name, value]),
    ),
  )('refuses an event whose %s holds %s with a 400 that changes nothing', async (field, _case, value) => {
    const email = `read-${randomUUID().slice(0, 8)}@example.ch`;
    const body = event('LOGIN_FAILURE', email, { [field]: field === 'email' ? `${value}${email}` : value });
    const before = await processedEventCount();
    const response = await deliver(body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, status: 400 });
    expect(await processedEventCount()).toBe(before);
    expect(await countOf(email)).toBe(0);
  });

  it('still refuses unsafe text in the query string', async () => {
    const body = event('LOGIN_FAILURE', 'query@example.ch');
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/cidaas-webhook/events?note=a%00b',
      headers: { 'x-api-key': API_KEY },
      payload: body,
    });
    expect(response.statusCode).toBe(400);
    expect(await isRecorded(body.id)).toBe(false);
  });
});

describe('events from the real embedded provider', () => {
  it('arrive with the key and clear the counter on activation', async () => {
    const listening = await startTestServer({ WEBHOOK_API_KEY: API_KEY });
    const address = await listening.app.listen({ host: '127.0.0.1', port: 0 });
    // A provider of its own, not the run's shared one: its webhook target is this test's server.
    const provider = await startEmbeddedProvider({
      PROVIDER_WEBHOOK_URL: `${address}/api/cidaas-webhook/events`,
      PROVIDER_WEBHOOK_API_KEY: API_KEY,
    });
    try {
      const admin = new ProviderClient({ baseUrl: provider.url, ...TEST_ADMIN_CLIENT });
      const email = 'activated-at-provider@example.ch';
      const requestId = await admin.generateRequestId({
        clientId: 'property-portal-demo',
        redirectUri: 'http://localhost:8082/callback',
      });
      if (requestId.kind !== 'answer') throw new Error('no request id');
      const registered = await admin.registerUser({
        requestId: requestId.data,
        email,
        password: 'Start-Pass1',
        locale: 'de',
      });
      if (registered.kind !== 'answer') throw new Error(`register failed: ${JSON.stringify(registered)}`);
      await seedAccountProtection(listening.db, email, { failures: 2 });
      expect(await admin.verifyAccount(registered.data.sub)).toMatchObject({
        kind: 'answer',
        data: 'changed',
      });
      await expect
        .poll(async () => (await readCounter(listening.db, email)).counter, { timeout: 10_000 })
        .toBe(0);
    } finally {
      await provider.stop();
      await listening.close();
    }
  }, 90_000);
});
