import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CidaasDouble } from './cidaas-double';
import { admin, login, newRequestId, PORTAL, send, startDouble } from './test-helpers';

// POST /login-srv/login: every answer a 302, with the recorded parameters (cidaas-facts.md), and
// cidaas's brute-force block in its variants. Lifting a block through the admin API is proven by
// provider-client/conformance.test.ts against the server's client.

let double: CidaasDouble;
let sub: string;
beforeEach(async () => {
  double = await startDouble();
  sub = double.addUser({ email: 'ann@example.com', password: 'right' }).sub;
});
afterEach(() => double.close());

const params = (url: URL) => Object.fromEntries(url.searchParams);
const PAGE = { subdomain: 'demo', groupname: 'default', lang: '', view_type: 'login' };
const wrong = async (times: number, email = 'ann@example.com') => {
  for (let attempt = 0; attempt < times; attempt += 1)
    await login(double, email, 'wrong', await newRequestId(double));
};

describe('login-srv/login', () => {
  it('sends a signed-in user on to the redirect_uri with a code and the state, and finishes the request', async () => {
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
    expect(params(await login(double, 'ann@example.com', 'right', requestId)).code).toBeUndefined();
  });

  it('answers a known user with sub and q (masked), an unknown one with error_description (recorded)', async () => {
    const requestId = await newRequestId(double);
    const known = await login(double, 'ann@example.com', 'wrong', requestId);
    expect(`${known.origin}${known.pathname}`).toBe('http://portal.test/login');
    const who = { error: 'invalid_username_password', username_type: 'email', requestId };
    expect(params(known)).toEqual({
      ...PAGE,
      ...who,
      username: 'ann@example.com',
      sub,
      q: expect.stringContaining('*'),
    });
    expect(known.searchParams.get('q')).not.toBe(sub);
    expect(params(await login(double, 'nobody@example.com', 'x', requestId))).toEqual({
      ...PAGE,
      ...who,
      username: 'nobody@example.com',
      error_description: 'Given username or password is invalid',
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
});

describe('brute-force blocking (blockAfterFailures, bruteForceBlock, fraudDetection)', () => {
  it('never blocks by default; the right password ends a series', async () => {
    await wrong(5);
    expect(double.user('ann@example.com')).toMatchObject({ userStatus: 'VERIFIED', isFraudBlocked: false });
    double.variants.blockAfterFailures = 3;
    double.addUser({ email: 'bob@example.com', password: 'right' });
    await wrong(2, 'bob@example.com');
    await login(double, 'bob@example.com', 'right', await newRequestId(double));
    await wrong(2, 'bob@example.com');
    expect(double.user('bob@example.com')).toMatchObject({ failedAttempts: 2, isFraudBlocked: false });
  });

  it("'status': the N-th failure sets BLOCKED, which the status call cannot leave", async () => {
    double.variants.blockAfterFailures = 3;
    await wrong(3);
    expect(double.user('ann@example.com')).toMatchObject({ userStatus: 'BLOCKED', isFraudBlocked: true });
    expect(params(await login(double, 'ann@example.com', 'right', await newRequestId(double))).error).toBe(
      'invalid_username_password',
    );
    expect(
      (await admin(double, 'PATCH', `/user-srv/users/${sub}/status`, { status: 'VERIFIED' })).status,
    ).toBe(400);
  });

  it("'list': the status stays VERIFIED, and sign-in is refused like a wrong password until unblocked", async () => {
    double.variants = { ...double.variants, blockAfterFailures: 3, bruteForceBlock: 'list' };
    await wrong(3);
    expect(double.user('ann@example.com')).toMatchObject({ userStatus: 'VERIFIED', isFraudBlocked: true });
    expect(params(await login(double, 'ann@example.com', 'right', await newRequestId(double))).error).toBe(
      'invalid_username_password',
    );
    expect((await admin(double, 'POST', '/fraud-detection-srv/unblock', { sub })).status).toBe(200);
    const target = await login(double, 'ann@example.com', 'right', await newRequestId(double));
    expect(`${target.origin}${target.pathname}`).toBe(PORTAL.redirectUris[0]);
  });

  it('blocks nobody on a tenant without fraud detection', async () => {
    double.variants = { ...double.variants, blockAfterFailures: 3, fraudDetection: false };
    await wrong(4);
    expect(double.user('ann@example.com')).toMatchObject({ userStatus: 'VERIFIED', isFraudBlocked: false });
  });
});
