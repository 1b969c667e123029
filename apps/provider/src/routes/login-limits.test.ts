import { createHash, createHmac } from 'node:crypto';
import { openTestDatabase, sql } from '@concierge/database';
import { freePort } from '@concierge/test-support';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createProviderApp } from '../app';
import { loadConfig } from '../config';
import { migrations } from '../db/migrations';
import type { ProviderTables } from '../db/schema';
import {
  createPkce,
  PORTAL_URL,
  type ProviderHarness,
  postLogin,
  RP_CLIENT_ID,
  RP_URL,
  startAuthorization,
  startProvider,
} from '../test-support/provider-harness';
import { TestBrowser } from '../test-support/test-browser';
import { createUser, DEMO_USER, findUserByEmail, seedDemoUser } from '../users/users';

const PASSWORD = 'Corr3ct-Horse!';
const WRONG = 'Wr0ng-Horse!';

/**
 * The limits count in fixed windows (users/login-limits.ts): an hour per request id, 15 minutes per
 * IP (the default window), a minute for the alarm. Every test starts just after an hour begins, which
 * begins each of those windows, so that no test's attempts fall into two windows. Only Date is faked:
 * from there the clock runs on at the real pace, and timers are real.
 */
const HOUR_MS = 3600_000;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(Math.ceil(Date.now() / HOUR_MS) * HOUR_MS + 1000);
});
afterEach(() => {
  vi.useRealTimers();
});

async function newRequestId(harness: ProviderHarness): Promise<string> {
  return (await startAuthorization(harness, new TestBrowser(), createPkce())).requestId;
}

/** The login form POST from a given client IP (inject sets the socket's address; trustProxy is off). */
async function loginFrom(
  harness: ProviderHarness,
  ip: string,
  fields: { username: string; password: string; requestId: string },
): Promise<URL> {
  const response = await harness.app.inject({
    method: 'POST',
    url: '/login-srv/login',
    remoteAddress: ip,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: PORTAL_URL },
    payload: new URLSearchParams({ username_type: 'email', ...fields }).toString(),
  });
  expect(response.statusCode).toBe(303);
  return new URL(String(response.headers.location));
}

async function login(harness: ProviderHarness, email: string, password: string, requestId?: string) {
  const browser = new TestBrowser();
  const id = requestId ?? (await startAuthorization(harness, browser, createPkce())).requestId;
  const response = await postLogin(harness, browser, { username: email, password, requestId: id });
  expect(response.status).toBe(303);
  return new URL(response.headers.get('location') ?? '');
}

/** LOGIN_FAILURE events the provider has written for the server (delivered or not). */
async function loginFailureEvents(harness: ProviderHarness): Promise<number> {
  const row = await harness.database.db
    .selectFrom('webhook_outbox')
    .select(sql<number>`count(*)::int`.as('count'))
    .where(sql`payload->>'eventtype'`, '=', 'LOGIN_FAILURE')
    .executeTakeFirstOrThrow();
  return row.count;
}

async function failedAttemptsOf(harness: ProviderHarness, email: string): Promise<number | undefined> {
  return (await findUserByEmail(harness.database.db, email))?.failed_login_attempts;
}

describe('the per-IP limit on the password check (PROVIDER_LOGIN_LIMIT_PER_IP=10)', () => {
  let harness: ProviderHarness;
  const victims = ['anna', 'bert', 'cleo', 'dora', 'emil'].map((name) => `${name}@example.com`);
  beforeAll(async () => {
    harness = await startProvider([], { env: { PROVIDER_LOGIN_LIMIT_PER_IP: '10' } });
    for (const email of victims) await createUser(harness.database.db, { email, password: PASSWORD });
  });
  afterAll(() => harness.close());

  it('answers attempts beyond the limit without checking the password and without a webhook event', async () => {
    const attacker = '203.0.113.7';
    const before = await loginFailureEvents(harness);
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const email = victims[attempt % victims.length] ?? '';
      const location = await loginFrom(harness, attacker, {
        username: email,
        password: WRONG,
        requestId: await newRequestId(harness),
      });
      expect(location.searchParams.get('error')).toBe('invalid_username_password');
    }
    // Ten failures were checked and reported; the ten after them reached neither the hash nor the server.
    expect((await loginFailureEvents(harness)) - before).toBe(10);
    for (const email of victims) expect(await failedAttemptsOf(harness, email)).toBe(2);

    // While limited, even the right password is refused: nothing is evaluated.
    const [anna = ''] = victims;
    const refused = await loginFrom(harness, attacker, {
      username: anna,
      password: PASSWORD,
      requestId: await newRequestId(harness),
    });
    expect(refused.searchParams.get('error')).toBe('invalid_username_password');
    expect(`${refused.origin}${refused.pathname}`).toBe(`${PORTAL_URL}/login`);
    expect(await failedAttemptsOf(harness, anna)).toBe(2);
    expect((await loginFailureEvents(harness)) - before).toBe(10);

    // The account's owner, elsewhere, is not locked out by it.
    const owner = await loginFrom(harness, '198.51.100.20', {
      username: anna,
      password: PASSWORD,
      requestId: await newRequestId(harness),
    });
    expect(owner.origin).toBe(harness.baseUrl);
    expect(await failedAttemptsOf(harness, anna)).toBe(0);

    // Only failures count: right passwords from one IP never use up its limit.
    for (let attempt = 0; attempt < 15; attempt += 1) {
      const location = await loginFrom(harness, '198.51.100.30', {
        username: 'emil@example.com',
        password: PASSWORD,
        requestId: await newRequestId(harness),
      });
      expect(location.origin).toBe(harness.baseUrl);
    }
  });

  it('caps the checks when many wrong passwords arrive from one IP at once', async () => {
    const burst = '203.0.113.99';
    const before = await loginFailureEvents(harness);
    const requestIds = await Promise.all(Array.from({ length: 25 }, () => newRequestId(harness)));
    await Promise.all(
      requestIds.map((requestId, index) =>
        loginFrom(harness, burst, {
          username: `nobody-${index}@example.com`,
          password: WRONG,
          requestId,
        }),
      ),
    );
    expect((await loginFailureEvents(harness)) - before).toBe(10);
  });
});

describe('the per-IP limit on the public user-existence check (PROVIDER_LOGIN_LIMIT_PER_IP=10)', () => {
  let harness: ProviderHarness;
  beforeAll(async () => {
    harness = await startProvider([], { env: { PROVIDER_LOGIN_LIMIT_PER_IP: '10' } });
  });
  afterAll(() => harness.close());

  it('answers at most ten questions per address and window, then 429, while other addresses go on', async () => {
    const requestId = await newRequestId(harness);
    const ask = (ip: string, email: string) =>
      harness.app.inject({
        method: 'POST',
        url: `/useractions-srv/userexistence/${requestId}`,
        headers: { 'content-type': 'application/json' },
        payload: { email, requestId },
        remoteAddress: ip,
      });
    const statuses: number[] = [];
    for (let question = 0; question < 12; question += 1) {
      statuses.push((await ask('198.51.100.9', `probe${question}@example.com`)).statusCode);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(204));
    expect(statuses.slice(10)).toEqual([429, 429]);
    expect((await ask('198.51.100.10', DEMO_USER.email)).statusCode).toBe(200);
  });
});

describe('the per-request-id limit (default 10 failed attempts)', () => {
  let harness: ProviderHarness;
  beforeAll(async () => {
    harness = await startProvider();
    await createUser(harness.database.db, { email: 'frank@example.com', password: PASSWORD });
    await createUser(harness.database.db, { email: 'gina@example.com', password: PASSWORD });
  });
  afterAll(() => harness.close());

  it('spends a request id after ten failed attempts: further ones are refused unchecked and unreported', async () => {
    const browser = new TestBrowser();
    const { requestId } = await startAuthorization(harness, browser, createPkce());
    const before = await loginFailureEvents(harness);
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const email = attempt % 2 === 0 ? 'frank@example.com' : 'gina@example.com';
      expect((await login(harness, email, WRONG, requestId)).searchParams.get('error')).toBe(
        'invalid_username_password',
      );
    }
    expect((await loginFailureEvents(harness)) - before).toBe(10);

    const spent = await login(harness, 'frank@example.com', PASSWORD, requestId);
    expect(spent.searchParams.get('error')).toBe('invalid_username_password');
    expect(spent.searchParams.get('requestId')).toBe(requestId);
    expect(await failedAttemptsOf(harness, 'frank@example.com')).toBe(5);
    expect((await loginFailureEvents(harness)) - before).toBe(10);

    // A fresh request id from the same IP works: the IP's limit is far away.
    expect((await login(harness, 'frank@example.com', PASSWORD)).origin).toBe(harness.baseUrl);
  });
});

/** The real app with its log captured (startProvider has no logger). */
async function startLoggedProvider(env: Record<string, string>, lines: string[]): Promise<ProviderHarness> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    CONCIERGE_DEV: 'true',
    PROVIDER_URL: baseUrl,
    PORTAL_URL,
    PROPERTY_PORTAL_URL: RP_URL,
    PROPERTY_PORTAL_CLIENT_ID: RP_CLIENT_ID,
    PROVIDER_WEBHOOK_URL: 'http://127.0.0.1:1/api/cidaas-webhook/events',
    SMTP_URL: 'smtp://127.0.0.1:1',
    ...env,
  });
  const database = await openTestDatabase<ProviderTables>('provider', migrations);
  await seedDemoUser(database.db);
  const app = await createProviderApp(config, database, {
    logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
  });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    baseUrl,
    config,
    database,
    app,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

interface LogLine {
  level: number;
  msg: string;
  event?: string;
  outcome?: string;
  reason?: string;
  clientId?: string;
  emailHash?: string;
  ip?: string;
  failures?: number;
}

const LOG_HASH_KEY = 'auth-log-hash-key-for-the-test';
/** HMAC-SHA256 under PROVIDER_LOG_HASH_KEY: a plain sha256 of a guessed address finds nothing. */
const hashOf = (email: string) => createHmac('sha256', LOG_HASH_KEY).update(email).digest('hex').slice(0, 16);

describe('auth events in the log', () => {
  const lines: string[] = [];
  let harness: ProviderHarness;
  const email = 'hanna@example.com';
  const parsed = () => lines.map((line) => JSON.parse(line) as LogLine);
  const authEvents = () => parsed().filter((line) => line.event === 'auth');
  beforeAll(async () => {
    harness = await startLoggedProvider(
      {
        PROVIDER_BLOCK_AFTER_FAILURES: '2',
        PROVIDER_LOGIN_LIMIT_PER_IP: '4',
        PROVIDER_LOGIN_ALARM_PER_MINUTE: '0',
        PROVIDER_LOG_HASH_KEY: LOG_HASH_KEY,
      },
      lines,
    );
    await createUser(harness.database.db, { email, password: PASSWORD });
  });
  afterAll(() => harness.close());

  it('logs every success, failure and lock with client, hashed e-mail and IP, never the e-mail or password', async () => {
    lines.length = 0;
    expect((await login(harness, ' Hanna@Example.com ', PASSWORD)).origin).toBe(harness.baseUrl);
    await login(harness, email, WRONG);
    await login(harness, 'nobody-at-all@example.com', WRONG);
    await login(harness, email, WRONG); // the second wrong one: PROVIDER_BLOCK_AFTER_FAILURES=2 blocks
    await login(harness, email, WRONG); // the fourth failure from 127.0.0.1: the IP's limit is reached
    await login(harness, email, PASSWORD); // beyond the limit: unchecked

    const hanna = hashOf(email);
    const common = { event: 'auth', clientId: RP_CLIENT_ID, ip: '127.0.0.1' };
    expect(authEvents()).toEqual([
      expect.objectContaining({ ...common, outcome: 'success', emailHash: hanna }),
      expect.objectContaining({
        ...common,
        outcome: 'failure',
        reason: 'invalid_username_password',
        emailHash: hanna,
      }),
      expect.objectContaining({
        ...common,
        outcome: 'failure',
        reason: 'invalid_username_password',
        emailHash: hashOf('nobody-at-all@example.com'),
      }),
      expect.objectContaining({
        ...common,
        outcome: 'failure',
        reason: 'invalid_username_password',
        emailHash: hanna,
      }),
      expect.objectContaining({ ...common, outcome: 'locked', emailHash: hanna }),
      expect.objectContaining({
        ...common,
        outcome: 'failure',
        reason: 'invalid_username_password',
        emailHash: hanna,
      }),
      expect.objectContaining({ ...common, outcome: 'failure', reason: 'ip_limit', emailHash: hanna }),
    ]);
    for (const event of authEvents()) expect(event.level).toBe(30);
    const log = lines.join('');
    const plainSha256 = createHash('sha256').update(email).digest('hex').slice(0, 16);
    for (const secret of [
      'hanna@',
      'Hanna@',
      'nobody-at-all',
      PASSWORD,
      WRONG,
      encodeURIComponent(email),
      plainSha256,
    ]) {
      expect(log).not.toContain(secret);
    }
  });
});

describe('the global alarm rate (PROVIDER_LOGIN_ALARM_PER_MINUTE=3)', () => {
  const lines: string[] = [];
  let harness: ProviderHarness;
  beforeAll(async () => {
    harness = await startLoggedProvider({ PROVIDER_LOGIN_ALARM_PER_MINUTE: '3' }, lines);
  });
  afterAll(() => harness.close());

  it('logs one warning with the count when failures of all accounts exceed the rate, and blocks nothing', async () => {
    // The count is per minute: the test starts a second into one (beforeEach), so the six attempts share it.
    lines.length = 0;
    for (let attempt = 0; attempt < 6; attempt += 1) {
      expect((await login(harness, `someone-${attempt}@example.com`, WRONG)).searchParams.get('error')).toBe(
        'invalid_username_password',
      );
    }
    const alarms = lines
      .map((line) => JSON.parse(line) as LogLine)
      .filter((line) => line.event === 'auth_alarm');
    expect(alarms).toEqual([
      expect.objectContaining({ level: 40, failures: 4, msg: expect.stringMatching(/^auth alarm/) }),
    ]);
    // No blocking: the demo user still signs in from the same IP.
    expect((await login(harness, DEMO_USER.email, DEMO_USER.password)).origin).toBe(harness.baseUrl);
  }, 30_000);
});
