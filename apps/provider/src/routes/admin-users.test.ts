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
import { DEMO_USER, findUserBySub } from '../users/users';

const PASSWORD = 'Str0ng-Passw0rd!';

describe('admin API', () => {
  let harness: ProviderHarness;
  let token: string;
  beforeAll(async () => {
    harness = await startProvider();
    token = await adminToken(harness);
  });
  afterAll(() => harness.close());

  function call(method: string, path: string, body: unknown, bearer: string | null = token) {
    return fetch(`${harness.baseUrl}${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  }

  function register(email: string, extra: Record<string, unknown> = {}) {
    return call('POST', '/users-srv/register', {
      email,
      password: PASSWORD,
      password_echo: PASSWORD,
      given_name: 'Anna',
      family_name: 'Muster',
      locale: 'fr',
      provider: 'self',
      ...extra,
    });
  }

  async function registeredUser(email: string): Promise<{ sub: string }> {
    const body = (await (await register(email)).json()) as { data: { sub: string } };
    return body.data;
  }

  describe('without a valid admin token', () => {
    it.each([
      ['POST', '/users-srv/register'],
      ['POST', '/useractions-srv/userexistence'],
      ['PATCH', '/user-srv/users/some-sub/status'],
    ])('%s %s answers 401', async (method, path) => {
      for (const bearer of [null, 'not-a-token']) {
        const response = await call(method, path, { email: 'x@example.com', status: 'VERIFIED' }, bearer);
        expect(response.status).toBe(401);
        expect(await response.json()).toMatchObject({
          success: false,
          status: 401,
          error: { code: 'unauthorized' },
        });
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
          redirect_uri: `${RP_URL}/callback`,
          client_id: 'property-portal-demo',
          code_verifier: pkce.verifier,
        }),
      });
      const { access_token: userToken } = (await tokens.json()) as { access_token: string };
      const response = await call(
        'POST',
        '/useractions-srv/userexistence',
        { email: DEMO_USER.email },
        userToken,
      );
      expect(response.status).toBe(401);
    });
  });

  it('registers a PENDING user and finds it by e-mail', async () => {
    const response = await register('New.Tenant@Example.com');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { sub: string } };
    expect(body).toMatchObject({ success: true, status: 200, data: { userStatus: 'PENDING' } });
    const user = await findUserBySub(harness.database.db, body.data.sub);
    expect(user).toMatchObject({
      email: 'new.tenant@example.com',
      status: 'PENDING',
      given_name: 'Anna',
      locale: 'fr',
    });
    expect(user?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);

    const existence = await call('POST', '/useractions-srv/userexistence', {
      email: 'new.tenant@example.com',
    });
    expect(await existence.json()).toEqual({
      success: true,
      status: 200,
      data: { exist: true, sub: body.data.sub, userStatus: 'PENDING' },
    });
  });

  it('answers 10301 for an unknown e-mail', async () => {
    const response = await call('POST', '/useractions-srv/userexistence', { email: 'nobody@example.com' });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ success: false, error: { code: 10301 } });
  });

  it('answers 409 for an e-mail that is already registered, in any case', async () => {
    expect((await register('twice@example.com')).status).toBe(200);
    const response = await register('TWICE@example.com');
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({
      success: false,
      status: 409,
      error: { code: 'email_already_registered' },
    });
  });

  it('refuses weak passwords, differing echoes and bad e-mails with 400', async () => {
    const cases = [
      { email: 'weak@example.com', password: 'weakpass', password_echo: 'weakpass' },
      { email: 'echo@example.com', password: PASSWORD, password_echo: `${PASSWORD}x` },
      { email: 'not-an-email', password: PASSWORD, password_echo: PASSWORD },
      { password: PASSWORD, password_echo: PASSWORD },
    ];
    for (const body of cases) {
      const response = await call('POST', '/users-srv/register', body);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ success: false, status: 400 });
    }
    const malformed = await call('POST', '/users-srv/register', '{"email":');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ success: false, status: 400 });
  });

  it('changes a user status, after which the user can sign in', async () => {
    const data = await registeredUser('activate@example.com');
    const response = await call('PATCH', `/user-srv/users/${data.sub}/status`, { status: 'VERIFIED' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      success: true,
      status: 200,
      data: { sub: data.sub, userStatus: 'VERIFIED' },
    });

    const browser = new TestBrowser();
    const { requestId } = await startAuthorization(harness, browser, createPkce());
    const login = await postLogin(harness, browser, {
      username: 'activate@example.com',
      password: PASSWORD,
      requestId,
    });
    expect(login.headers.get('location')?.startsWith(harness.baseUrl)).toBe(true);
  });

  it('answers 404 for an unknown sub and 400 for an unknown status', async () => {
    const unknown = await call('PATCH', '/user-srv/users/00000000-0000-4000-8000-000000000000/status', {
      status: 'VERIFIED',
    });
    expect(unknown.status).toBe(404);
    const data = await registeredUser('status@example.com');
    const invalid = await call('PATCH', `/user-srv/users/${data.sub}/status`, { status: 'ACTIVE' });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({
      success: false,
      status: 400,
      error: { code: 'invalid_request' },
    });
  });
});
