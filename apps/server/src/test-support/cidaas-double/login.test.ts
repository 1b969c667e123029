import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CidaasDouble } from './cidaas-double';
import {
  expectRefusal,
  jsonInit,
  login,
  newRequestId,
  OTHER,
  PORTAL,
  send,
  startDouble,
} from './test-helpers';

// POST /login-srv/login: every answer a 302, with the recorded parameters (cidaas-facts.md).

let double: CidaasDouble;
let sub: string;
beforeEach(async () => {
  double = await startDouble();
  sub = double.addUser({ email: 'ann@example.com', password: 'right' }).sub;
});
afterEach(() => double.close());

const params = (url: URL) => Object.fromEntries(url.searchParams);

describe('login-srv/login', () => {
  it('sends a signed-in user on to the redirect_uri with a code (and the state) and finishes the request', async () => {
    const query = new URLSearchParams({
      client_id: PORTAL.clientId,
      redirect_uri: PORTAL.redirectUris[0] ?? '',
      state: 'st',
    });
    const hosted = new URL(
      (await send(double, 'GET', `/authz-srv/authz?${query}`)).headers.get('location') ?? '',
    );
    const requestId = hosted.searchParams.get('requestId') ?? '';
    const target = await login(double, 'ann@example.com', 'right', requestId);
    expect(`${target.origin}${target.pathname}`).toBe(PORTAL.redirectUris[0]);
    expect(params(target)).toEqual({ code: expect.any(String), state: 'st' });
    expect(params(await login(double, 'ann@example.com', 'right', requestId)).error).toBe('session_expired');
  });

  it('answers a wrong password of a known user with sub and q, no error_description', async () => {
    const requestId = await newRequestId(double);
    const back = await login(double, 'ann@example.com', 'wrong', requestId);
    expect(`${back.origin}${back.pathname}`).toBe('http://portal.test/login');
    expect(params(back)).toEqual({
      subdomain: 'demo',
      groupname: 'default',
      lang: '',
      view_type: 'login',
      error: 'invalid_username_password',
      username: 'ann@example.com',
      username_type: 'email',
      requestId,
      sub,
      q: expect.stringContaining('*'),
    });
    expect(back.searchParams.get('q')).not.toBe(sub);
    expect(double.user('ann@example.com')?.failedAttempts).toBe(1);
  });

  it('answers an unknown user with error_description and no sub or q', async () => {
    const requestId = await newRequestId(double);
    const back = await login(double, 'nobody@example.com', 'x', requestId);
    expect(params(back)).toEqual({
      subdomain: 'demo',
      groupname: 'default',
      lang: '',
      view_type: 'login',
      error: 'invalid_username_password',
      error_description: 'Given username or password is invalid',
      username: 'nobody@example.com',
      username_type: 'email',
      requestId,
    });
  });

  it.each(['DECLINED', 'BLOCKED'] as const)(
    'refuses a %s user with the right password like a wrong one',
    async (status) => {
      double.addUser({ email: 'locked@example.com', password: 'right', userStatus: status });
      const back = await login(double, 'locked@example.com', 'right', await newRequestId(double));
      expect(params(back)).toMatchObject({ error: 'invalid_username_password', sub: expect.any(String) });
    },
  );

  it('sends an unverified e-mail (or a PENDING user) back with email_not_verified', async () => {
    double.addUser({ email: 'new@example.com', password: 'pw', email_verified: false });
    double.addUser({ email: 'old@example.com', password: 'pw', userStatus: 'PENDING' });
    for (const email of ['new@example.com', 'old@example.com']) {
      const requestId = await newRequestId(double);
      const back = await login(double, email, 'pw', requestId);
      expect(params(back)).toEqual({
        subdomain: 'demo',
        groupname: 'default',
        lang: '',
        view_type: 'login',
        error: 'email_not_verified',
        username: email,
        username_type: 'email',
        requestId,
      });
    }
  });

  it("goes back to the client's own hosted page", async () => {
    const back = await login(double, 'ann@example.com', 'wrong', await newRequestId(double, OTHER));
    expect(`${back.origin}${back.pathname}`).toBe('http://other.test/sign-in');
  });

  it("sends an expired or unknown request id to the first client's page with session_expired, no requestId", async () => {
    const requestId = await newRequestId(double, OTHER);
    double.expireRequestIds();
    for (const id of [requestId, 'never-issued']) {
      const back = await login(double, 'ann@example.com', 'right', id);
      expect(`${back.origin}${back.pathname}`).toBe('http://portal.test/login');
      expect(params(back)).toEqual({
        subdomain: 'demo',
        groupname: 'default',
        lang: '',
        view_type: 'login',
        error: 'session_expired',
        username: 'ann@example.com',
        username_type: 'email',
      });
    }
  });

  it('refuses a JSON body or missing fields with 400 + 10000', async () => {
    const body = { username: 'ann@example.com', password: 'right', requestId: await newRequestId(double) };
    expectRefusal(await send(double, 'POST', '/login-srv/login', jsonInit(body)), 400, 10000);
    const form = { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'username=a' };
    expectRefusal(await send(double, 'POST', '/login-srv/login', form), 400, 10000);
  });
});

describe('brute-force blocking (blockAfterFailures)', () => {
  it('never blocks by default', async () => {
    for (let attempt = 0; attempt < 5; attempt += 1)
      await login(double, 'ann@example.com', 'wrong', await newRequestId(double));
    expect(double.user('ann@example.com')?.userStatus).toBe('VERIFIED');
  });

  it('sets BLOCKED on the N-th consecutive failure; the right password resets the series', async () => {
    double.variants.blockAfterFailures = 3;
    const requestId = await newRequestId(double);
    await login(double, 'ann@example.com', 'wrong', requestId);
    await login(double, 'ann@example.com', 'wrong', requestId);
    await login(double, 'ann@example.com', 'right', requestId);
    expect(double.user('ann@example.com')?.failedAttempts).toBe(0);
    const again = await newRequestId(double);
    for (let attempt = 0; attempt < 3; attempt += 1) await login(double, 'ann@example.com', 'wrong', again);
    expect(double.user('ann@example.com')?.userStatus).toBe('BLOCKED');
    expect(params(await login(double, 'ann@example.com', 'right', again)).error).toBe(
      'invalid_username_password',
    );
  });
});
