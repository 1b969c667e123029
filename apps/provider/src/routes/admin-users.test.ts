import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminToken,
  createPkce,
  type ProviderHarness,
  postLogin,
  RP_CLIENT_ID,
  RP_REDIRECT_URI,
  RP_URL,
  startAuthorization,
  startProvider,
} from '../test-support/provider-harness';
import { TestBrowser } from '../test-support/test-browser';
import { createUser, DEMO_USER, findUserBySub } from '../users/users';

const PASSWORD = 'Str0ng-Passw0rd!';
const UNKNOWN_SUB = '00000000-0000-4000-8000-000000000000';

/** cidaas's refusal envelope with the given status and integer code. */
function refusal(status: number, code: number) {
  return {
    success: false,
    status,
    error: {
      code,
      moreInfo: '',
      type: expect.any(String),
      status,
      referenceNumber: expect.stringMatching(/^\d+-[0-9a-f]+$/),
      error: expect.any(String),
    },
  };
}

describe('admin API', () => {
  let harness: ProviderHarness;
  let token: string;
  beforeAll(async () => {
    harness = await startProvider();
    token = await adminToken(harness);
  });
  afterAll(() => harness.close());

  function call(
    method: string,
    path: string,
    body?: unknown,
    options: { bearer?: string | null; headers?: Record<string, string> } = {},
  ) {
    const bearer = options.bearer === undefined ? token : options.bearer;
    return fetch(`${harness.baseUrl}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        ...options.headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  }

  /** A fresh request id of the demo client, asked for the way the server asks (no Origin). */
  async function freshRequestId(): Promise<string> {
    const response = await fetch(`${harness.baseUrl}/authz-srv/authrequest/authz/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: RP_CLIENT_ID, redirect_uri: RP_REDIRECT_URI }),
    });
    return ((await response.json()) as { data: { requestId: string } }).data.requestId;
  }

  async function register(body: Record<string, unknown>, requestId?: string) {
    return call('POST', '/users-srv/register', body, {
      headers: { requestId: requestId ?? (await freshRequestId()) },
    });
  }

  function registration(email: string, extra: Record<string, unknown> = {}) {
    return {
      email,
      password: PASSWORD,
      password_echo: PASSWORD,
      given_name: 'Anna',
      family_name: 'Muster',
      locale: 'fr',
      provider: 'self',
      ...extra,
    };
  }

  async function registeredUser(email: string): Promise<string> {
    const body = (await (await register(registration(email))).json()) as { data: { sub: string } };
    return body.data.sub;
  }

  async function loginError(email: string, password: string): Promise<string | null> {
    const browser = new TestBrowser();
    const { requestId } = await startAuthorization(harness, browser, createPkce());
    const login = await postLogin(harness, browser, { username: email, password, requestId });
    const location = login.headers.get('location') ?? '';
    return location.startsWith(harness.baseUrl) ? null : new URL(location).searchParams.get('error');
  }

  describe('without a valid admin token', () => {
    it.each([
      ['POST', '/users-srv/register'],
      ['POST', '/useractions-srv/userexistence'],
      ['POST', '/user-srv/graph/users'],
      ['GET', `/users-srv/internal/userinfo/profile/${UNKNOWN_SUB}`],
      ['PATCH', '/user-srv/users/some-sub/status'],
      ['PUT', '/user-srv/users/some-sub'],
      ['POST', '/fraud-detection-srv/unblock'],
    ])('%s %s answers 401', async (method, path) => {
      const body = method === 'GET' ? undefined : { email: 'x@example.com', status: 'VERIFIED' };
      for (const bearer of [null, 'not-a-token']) {
        const response = await call(method, path, body, { bearer });
        expect(response.status).toBe(401);
        expect(await response.json()).toEqual(refusal(401, 401));
      }
    });

    it('refuses an access token a user got through the code flow', async () => {
      const browser = new TestBrowser();
      const pkce = createPkce();
      const { requestId } = await startAuthorization(harness, browser, pkce);
      const login = await postLogin(harness, browser, {
        username: DEMO_USER.email,
        password: DEMO_USER.password,
        requestId,
      });
      const callback = await browser.followUntil(login.headers.get('location') ?? '', (url) =>
        url.startsWith(RP_URL),
      );
      const tokens = await fetch(`${harness.baseUrl}/token-srv/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          grant_type: 'authorization_code',
          code: callback.searchParams.get('code'),
          redirect_uri: RP_REDIRECT_URI,
          client_id: RP_CLIENT_ID,
          code_verifier: pkce.verifier,
        }),
      });
      const { access_token: userToken } = (await tokens.json()) as { access_token: string };
      const response = await call(
        'POST',
        '/useractions-srv/userexistence',
        { email: DEMO_USER.email },
        { bearer: userToken },
      );
      expect(response.status).toBe(401);
    });
  });

  describe('POST /users-srv/register', () => {
    it('registers a VERIFIED user with an unverified e-mail, answering as cidaas does', async () => {
      const response = await register(registration('New.Tenant@Example.com', { unknown_field: 'dropped' }));
      expect(response.status).toBe(200);
      const body = (await response.json()) as { data: { sub: string } };
      const { sub } = body.data;
      expect(body).toEqual({
        success: true,
        status: 200,
        data: {
          sub: expect.stringMatching(/^[0-9a-f-]{36}$/),
          userStatus: 'VERIFIED',
          email_verified: false,
          q: `${sub.slice(0, 4)}****`,
          suggested_action: '',
          suggested_redirect_uri: '',
          next_token: '',
        },
      });
      const user = await findUserBySub(harness.database.db, sub);
      expect(user).toMatchObject({
        email: 'new.tenant@example.com',
        status: 'VERIFIED',
        email_verified: false,
        given_name: 'Anna',
        family_name: 'Muster',
        locale: 'fr',
      });
      expect(user?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    });

    it('refuses a missing, unknown or expired requestId header with 400 and 10001', async () => {
      const body = registration('no-request@example.com');
      const missing = await call('POST', '/users-srv/register', body);
      expect(missing.status).toBe(400);
      expect(await missing.json()).toEqual(refusal(400, 10001));
      expect(await (await register(body, 'no-such-request')).json()).toEqual(refusal(400, 10001));

      const expired = await freshRequestId();
      await harness.database.db
        .updateTable('oidc_payloads')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('kind', '=', 'Interaction')
        .where('id', '=', expired)
        .execute();
      expect(await (await register(body, expired)).json()).toEqual(refusal(400, 10001));
    });

    it('answers an e-mail that is already registered, in any case, with 409 and 10011', async () => {
      expect((await register(registration('twice@example.com'))).status).toBe(200);
      const response = await register(registration('TWICE@example.com'));
      expect(response.status).toBe(409);
      expect(await response.json()).toEqual(refusal(409, 10011));
    });

    it('refuses differing echoes with 417 and 10009, weak passwords with 417 and 10012', async () => {
      const echo = await register(registration('echo@example.com', { password_echo: `${PASSWORD}x` }));
      expect(echo.status).toBe(417);
      expect(await echo.json()).toEqual(refusal(417, 10009));
      const weak = await register(
        registration('weak@example.com', { password: 'weakpass', password_echo: 'weakpass' }),
      );
      expect(weak.status).toBe(417);
      expect(await weak.json()).toEqual(refusal(417, 10012));
    });

    it('names a missing required field with 417 and 507', async () => {
      for (const [field, value] of [
        ['email', undefined],
        ['password', null],
        ['password_echo', ' '],
      ] as const) {
        const response = await register(registration('fields@example.com', { [field]: value }));
        expect(response.status).toBe(417);
        const answer = (await response.json()) as { error: { error: string } };
        expect(answer).toEqual(refusal(417, 507));
        expect(answer.error.error).toBe(`${field} cannot be null`);
      }
    });

    it('refuses a bad e-mail and malformed JSON with 400 and 10000', async () => {
      const bad = await register(registration('not-an-email'));
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual(refusal(400, 10000));
      const malformed = await call('POST', '/users-srv/register', '{"email":', {
        headers: { requestId: await freshRequestId() },
      });
      expect(malformed.status).toBe(400);
      expect(await malformed.json()).toEqual(refusal(400, 10000));
    });
  });

  describe('user look-ups', () => {
    it('confirms a known e-mail with sub and status, and answers an unknown one with an empty 204', async () => {
      const sub = await registeredUser('exists@example.com');
      const known = await call('POST', '/useractions-srv/userexistence', { email: 'Exists@Example.com' });
      expect(await known.json()).toEqual({
        success: true,
        status: 200,
        data: { exist: true, sub, userStatus: 'VERIFIED' },
      });
      const unknown = await call('POST', '/useractions-srv/userexistence', { email: 'nobody@example.com' });
      expect(unknown.status).toBe(204);
      expect(await unknown.text()).toBe('');
    });

    it('finds users by e-mail through the graph search, 204 when none, 400 for a malformed filter', async () => {
      const sub = await registeredUser('search@example.com');
      const search = (fieldsFilter: unknown) =>
        call('POST', '/user-srv/graph/users', {
          fieldsFilter,
          fields: 'sub userStatus system.email system.email_verified',
          from: 0,
          size: 10,
          excludeUserCount: true,
        });
      const entry = {
        sub,
        userStatus: 'VERIFIED',
        system: { email: 'search@example.com', email_verified: false },
      };
      for (const value of [[' SEARCH@example.com', 'other@example.com'], 'Search@Example.com']) {
        const found = await search([{ field: 'email', value }]);
        expect(found.status).toBe(200);
        expect(await found.json()).toEqual({ success: true, status: 200, data: [entry] });
      }
      const none = await search([{ field: 'email', value: ['nobody@example.com'] }]);
      expect(none.status).toBe(204);
      expect(await none.text()).toBe('');
      for (const malformed of [
        undefined,
        [],
        [{ field: 'email' }],
        [{ field: 'given_name', value: 'x' }],
        [{ field: 'email', value: [42] }],
      ]) {
        const refused = await search(malformed);
        expect(refused.status).toBe(400);
        expect(await refused.json()).toEqual(refusal(400, 10000));
      }
    });

    it('tells the profile of a sub nested as cidaas documents it, and 417 with 10301 for an unknown sub', async () => {
      const sub = await registeredUser('profile@example.com');
      const profile = await call('GET', `/users-srv/internal/userinfo/profile/${sub}`);
      const body = (await profile.json()) as { data: { identity: { _id: string } } };
      expect(body).toEqual({
        success: true,
        status: 200,
        data: {
          userAccount: {
            _id: sub,
            sub,
            userStatus: 'VERIFIED',
            className: 'cidaas.user',
            createdTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
            updatedTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          },
          identity: {
            _id: expect.stringMatching(
              /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
            ),
            sub,
            email: 'profile@example.com',
            email_verified: false,
            given_name: 'Anna',
            family_name: 'Muster',
            locale: 'fr',
            provider: 'self',
          },
          customFields: {},
          roles: [],
          groups: [],
        },
      });
      // The identity id is stable and not the sub.
      const again = (await (
        await call('GET', `/users-srv/internal/userinfo/profile/${sub}`)
      ).json()) as typeof body;
      expect(again.data.identity._id).toBe(body.data.identity._id);
      expect(body.data.identity._id).not.toBe(sub);

      const bare = await createUser(harness.database.db, { email: 'bare@example.com', password: PASSWORD });
      if (!bare.isCreated) throw new Error('user not created');
      const bareProfile = await call('GET', `/users-srv/internal/userinfo/profile/${bare.sub}`);
      expect(((await bareProfile.json()) as { data: { identity: unknown } }).data.identity).toEqual({
        _id: expect.any(String),
        sub: bare.sub,
        email: 'bare@example.com',
        email_verified: true,
        provider: 'self',
      });
      const unknown = await call('GET', `/users-srv/internal/userinfo/profile/${UNKNOWN_SUB}`);
      expect(unknown.status).toBe(417);
      expect(await unknown.json()).toEqual(refusal(417, 10301));
    });
  });

  describe('PUT /user-srv/users/:sub', () => {
    it('marks the e-mail verified, after which the self-registered user can sign in', async () => {
      const email = 'activate@example.com';
      const sub = await registeredUser(email);
      expect(await loginError(email, PASSWORD)).toBe('email_not_verified');
      const profile = (await (await call('GET', `/users-srv/internal/userinfo/profile/${sub}`)).json()) as {
        data: { identity: { _id: string } };
      };
      const response = await call('PUT', `/user-srv/users/${sub}`, {
        userData: {
          provider: 'self',
          identityId: profile.data.identity._id,
          email_verified: true,
          given_name: 'ignored',
        },
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ success: true, status: 200, data: { updated: true } });
      expect(await findUserBySub(harness.database.db, sub)).toMatchObject({
        email_verified: true,
        status: 'VERIFIED',
        given_name: 'Anna',
      });
      expect(await loginError(email, PASSWORD)).toBeNull();
      // Again, or without email_verified: nothing changes, the answer is the same.
      for (const userData of [
        { provider: 'self', email_verified: true },
        { provider: 'self', family_name: 'x' },
      ]) {
        expect(await (await call('PUT', `/user-srv/users/${sub}`, { userData })).json()).toEqual({
          success: true,
          status: 200,
          data: { updated: true },
        });
      }
    });

    it('answers an unknown sub with 417 and 10301, a malformed body with 400 and 10000', async () => {
      for (const userData of [{ provider: 'self', email_verified: true }, { provider: 'self' }]) {
        const unknown = await call('PUT', `/user-srv/users/${UNKNOWN_SUB}`, { userData });
        expect(unknown.status).toBe(417);
        expect(await unknown.json()).toEqual(refusal(417, 10301));
      }
      const sub = await registeredUser('profile-bad@example.com');
      for (const body of [{ email_verified: true }, { userData: { email_verified: 'yes' } }]) {
        const invalid = await call('PUT', `/user-srv/users/${sub}`, body);
        expect(invalid.status).toBe(400);
        expect(await invalid.json()).toEqual(refusal(400, 10000));
      }
      expect((await findUserBySub(harness.database.db, sub))?.email_verified).toBe(false);
    });

    it("refuses the admin token at the self-service PUT /users-srv/user/profile/:sub with cidaas's 401", async () => {
      const sub = await registeredUser('self-service@example.com');
      const response = await call('PUT', `/users-srv/user/profile/${sub}`, {
        email_verified: true,
        provider: 'self',
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        error: 'Access denied for this resource',
        refnumber: expect.any(String),
      });
      expect((await findUserBySub(harness.database.db, sub))?.email_verified).toBe(false);
    });
  });

  describe('PATCH /user-srv/users/:sub/status', () => {
    it('declines and re-admits a user, clearing the failed-login count', async () => {
      const email = 'status@example.com';
      const created = await createUser(harness.database.db, { email, password: PASSWORD });
      if (!created.isCreated) throw new Error('user not created');
      const { sub } = created;
      await loginError(email, 'Wr0ng-Passw0rd!');
      const response = await call('PATCH', `/user-srv/users/${sub}/status`, {
        status: 'DECLINED',
        reason: 'test',
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ success: true, status: 200, data: { updated: true } });
      expect(await loginError(email, PASSWORD)).toBe('invalid_username_password');
      expect((await call('PATCH', `/user-srv/users/${sub}/status`, { status: 'VERIFIED' })).status).toBe(200);
      expect(await findUserBySub(harness.database.db, sub)).toMatchObject({
        status: 'VERIFIED',
        failed_login_attempts: 0,
      });
      expect(await loginError(email, PASSWORD)).toBeNull();
    });

    it('activates a PENDING user, which marks the e-mail verified as well', async () => {
      const created = await createUser(harness.database.db, {
        email: 'pending@example.com',
        password: PASSWORD,
        status: 'PENDING',
      });
      if (!created.isCreated) throw new Error('user not created');
      const response = await call('PATCH', `/user-srv/users/${created.sub}/status`, { status: 'VERIFIED' });
      expect(response.status).toBe(200);
      expect(await findUserBySub(harness.database.db, created.sub)).toMatchObject({
        status: 'VERIFIED',
        email_verified: true,
      });
      expect(await loginError('pending@example.com', PASSWORD)).toBeNull();
    });

    it('refuses the status the user has already with 400 and 10013', async () => {
      const sub = await registeredUser('same-status@example.com');
      const response = await call('PATCH', `/user-srv/users/${sub}/status`, { status: 'VERIFIED' });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual(refusal(400, 10013));
    });

    it('neither sets BLOCKED (400 and 10000) nor leaves it (400 and 10013)', async () => {
      const sub = await registeredUser('blocked-status@example.com');
      const setBlocked = await call('PATCH', `/user-srv/users/${sub}/status`, { status: 'BLOCKED' });
      expect(setBlocked.status).toBe(400);
      expect(await setBlocked.json()).toEqual(refusal(400, 10000));
      // Blocked as the brute-force protection blocks.
      await harness.database.db
        .updateTable('users')
        .set({ status: 'BLOCKED', failed_login_attempts: 3 })
        .where('sub', '=', sub)
        .execute();
      for (const status of ['VERIFIED', 'DECLINED', 'PENDING']) {
        const response = await call('PATCH', `/user-srv/users/${sub}/status`, { status });
        expect(response.status).toBe(400);
        expect(await response.json()).toEqual(refusal(400, 10013));
      }
      expect(await findUserBySub(harness.database.db, sub)).toMatchObject({
        status: 'BLOCKED',
        failed_login_attempts: 3,
      });
    });

    it('answers an unknown sub with 417 and 10301, and an unknown status with 400 and 10000', async () => {
      const unknown = await call('PATCH', `/user-srv/users/${UNKNOWN_SUB}/status`, { status: 'VERIFIED' });
      expect(unknown.status).toBe(417);
      expect(await unknown.json()).toEqual(refusal(417, 10301));
      const sub = await registeredUser('bad-status@example.com');
      const invalid = await call('PATCH', `/user-srv/users/${sub}/status`, { status: 'ACTIVE' });
      expect(invalid.status).toBe(400);
      expect(await invalid.json()).toEqual(refusal(400, 10000));
    });
  });
});
