import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminToken,
  createPkce,
  type ProviderHarness,
  postLogin,
  RP_URL,
  startAuthorization,
  startProvider,
} from '../test-support/provider-harness';
import { TestBrowser } from '../test-support/test-browser';
import { createUser, findUserByEmail } from './users';

const PASSWORD = 'Corr3ct-Horse!';
const WRONG = 'Wr0ng-Horse!';

/** One provider per configuration, with the helpers bound to it. */
function providerWith(env: Record<string, string>) {
  const context = {
    harness: undefined as unknown as ProviderHarness,
    async newUser(email: string, status: 'VERIFIED' | 'PENDING' = 'VERIFIED'): Promise<string> {
      const created = await createUser(context.harness.database.db, { email, password: PASSWORD, status });
      if (!created.isCreated) throw new Error('user not created');
      return created.sub;
    },
    async login(email: string, password: string): Promise<URL> {
      const browser = new TestBrowser();
      const { requestId } = await startAuthorization(context.harness, browser, createPkce());
      const response = await postLogin(context.harness, browser, { username: email, password, requestId });
      expect(response.status).toBe(303);
      return new URL(response.headers.get('location') ?? '');
    },
    async stateOf(email: string) {
      const user = await findUserByEmail(context.harness.database.db, email);
      return { status: user?.status, failed: user?.failed_login_attempts };
    },
  };
  beforeAll(async () => {
    context.harness = await startProvider([], { env });
  });
  afterAll(() => context.harness.close());
  return context;
}

describe("blocking after the third wrong password (PROVIDER_BLOCK_AFTER_FAILURES=3, cidaas's protection)", () => {
  const provider = providerWith({ PROVIDER_BLOCK_AFTER_FAILURES: '3' });
  const { newUser, login, stateOf } = provider;

  it('blocks the account at the third wrong password', async () => {
    const email = 'three@example.com';
    await newUser(email);
    for (const expected of [1, 2]) {
      expect((await login(email, WRONG)).searchParams.get('error')).toBe('invalid_username_password');
      expect(await stateOf(email)).toEqual({ status: 'VERIFIED', failed: expected });
    }
    expect((await login(email, WRONG)).searchParams.get('error')).toBe('invalid_username_password');
    expect(await stateOf(email)).toEqual({ status: 'BLOCKED', failed: 3 });
  });

  it('answers the right password of a blocked account like a wrong one', async () => {
    const email = 'blocked-right@example.com';
    const sub = await newUser(email);
    for (let attempt = 0; attempt < 3; attempt += 1) await login(email, WRONG);
    const location = await login(email, PASSWORD);
    expect(location.origin).not.toBe(RP_URL);
    expect(location.searchParams.get('error')).toBe('invalid_username_password');
    expect(location.searchParams.get('sub')).toBe(sub);
    expect(await stateOf(email)).toEqual({ status: 'BLOCKED', failed: 3 });
  });

  it('checks at most three passwords when twenty wrong ones arrive at once', async () => {
    const email = 'parallel@example.com';
    await newUser(email);
    const browser = new TestBrowser();
    const { requestId } = await startAuthorization(provider.harness, browser, createPkce());
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        postLogin(provider.harness, browser, { username: email, password: WRONG, requestId }),
      ),
    );
    for (const response of responses) {
      expect(new URL(response.headers.get('location') ?? '').searchParams.get('error')).toBe(
        'invalid_username_password',
      );
    }
    // Every checked wrong password adds one; a fourth check would have made it 4.
    expect(await stateOf(email)).toEqual({ status: 'BLOCKED', failed: 3 });
  });

  it('starts counting again after a successful sign-in', async () => {
    const email = 'recovers@example.com';
    await newUser(email);
    await login(email, WRONG);
    await login(email, WRONG);
    expect((await stateOf(email)).failed).toBe(2);
    const location = await login(email, PASSWORD);
    expect(location.origin).toBe(provider.harness.baseUrl);
    expect(await stateOf(email)).toEqual({ status: 'VERIFIED', failed: 0 });
    await login(email, WRONG);
    expect(await stateOf(email)).toEqual({ status: 'VERIFIED', failed: 1 });
  });

  it('blocks a PENDING account too, and the right password clears its count', async () => {
    const email = 'pending-count@example.com';
    await newUser(email, 'PENDING');
    await login(email, WRONG);
    expect((await login(email, PASSWORD)).searchParams.get('error')).toBe('email_not_verified');
    expect(await stateOf(email)).toEqual({ status: 'PENDING', failed: 0 });
    for (let attempt = 0; attempt < 3; attempt += 1) await login(email, WRONG);
    expect(await stateOf(email)).toEqual({ status: 'BLOCKED', failed: 3 });
  });

  it('stays blocked for the status call, and the fraud-detection unblock lifts it once (200, then 204)', async () => {
    const email = 'unblock@example.com';
    const sub = await newUser(email);
    for (let attempt = 0; attempt < 3; attempt += 1) await login(email, WRONG);
    const token = await adminToken(provider.harness);
    const admin = (method: string, path: string, body: unknown) =>
      fetch(`${provider.harness.baseUrl}${path}`, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
    // cidaas documents no transition out of BLOCKED.
    const patched = await admin('PATCH', `/user-srv/users/${sub}/status`, { status: 'VERIFIED' });
    expect(patched.status).toBe(400);
    expect(await patched.json()).toMatchObject({ status: 400, error: { code: 10013 } });
    expect(await stateOf(email)).toEqual({ status: 'BLOCKED', failed: 3 });

    const unblocked = await admin('POST', '/fraud-detection-srv/unblock', { sub });
    expect(unblocked.status).toBe(200);
    expect(await unblocked.json()).toEqual({ success: true, status: 200, data: { unblocked: true } });
    expect(await stateOf(email)).toEqual({ status: 'VERIFIED', failed: 0 });
    expect((await login(email, PASSWORD)).origin).toBe(provider.harness.baseUrl);

    // Nothing blocked any more, or no such sub: the documented 204, without a body.
    for (const body of [{ sub }, { sub: '00000000-0000-4000-8000-000000000000' }]) {
      const again = await admin('POST', '/fraud-detection-srv/unblock', body);
      expect(again.status).toBe(204);
      expect(await again.text()).toBe('');
    }
    const missing = await admin('POST', '/fraud-detection-srv/unblock', {});
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ status: 400, error: { code: 10000 } });
  });

  it('changes nothing in the users table for an unknown e-mail', async () => {
    const snapshot = () =>
      provider.harness.database.db.selectFrom('users').selectAll().orderBy('sub').execute();
    const before = await snapshot();
    for (let attempt = 0; attempt < 4; attempt += 1) {
      expect((await login('nobody-here@example.com', WRONG)).searchParams.get('error')).toBe(
        'invalid_username_password',
      );
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe('no blocking by default (PROVIDER_BLOCK_AFTER_FAILURES=0): the server locks through the admin API', () => {
  const provider = providerWith({});
  const { newUser, login, stateOf } = provider;

  it('counts wrong passwords but never blocks, and the right password still signs in', async () => {
    const email = 'never-blocked@example.com';
    await newUser(email);
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      expect((await login(email, WRONG)).searchParams.get('error')).toBe('invalid_username_password');
      expect(await stateOf(email)).toEqual({ status: 'VERIFIED', failed: attempt });
    }
    expect((await login(email, PASSWORD)).origin).toBe(provider.harness.baseUrl);
    expect(await stateOf(email)).toEqual({ status: 'VERIFIED', failed: 0 });
  });
});
