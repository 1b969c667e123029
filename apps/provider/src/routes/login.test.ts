import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPkce,
  exchangeCode,
  PORTAL_URL,
  type ProviderHarness,
  postLogin,
  RP_URL,
  signIn,
  startAuthorization,
  startProvider,
} from '../test-support/provider-harness';
import { TestBrowser } from '../test-support/test-browser';
import { changeUserStatus } from '../users/user-status';
import { createUser, DEMO_USER, findUserByEmail } from '../users/users';

const PASSWORD = 'Corr3ct-Horse!';
const ROLE_CLIENT = {
  client_id: 'role-portal',
  token_endpoint_auth_method: 'none',
  grant_types: ['authorization_code'],
  redirect_uris: [`${RP_URL}/role-callback`],
  subdomain: 'acme',
  required_roles: ['tenant'],
};
const roleClientRequest = { client_id: 'role-portal', redirect_uri: `${RP_URL}/role-callback` };

/** The demo client's hosted page URL carries its subdomain; cidaas's parameters come after it. */
const HOSTED_PAGE_PARAMS = { subdomain: 'demo', groupname: 'default', lang: '', view_type: 'login' };

function loginRedirect(response: Response): URL {
  expect(response.status).toBe(303);
  const location = new URL(response.headers.get('location') ?? '');
  expect(`${location.origin}${location.pathname}`).toBe(`${PORTAL_URL}/login`);
  return location;
}

describe('POST /login-srv/login', () => {
  let harness: ProviderHarness;
  beforeAll(async () => {
    harness = await startProvider([ROLE_CLIENT]);
    const { db } = harness.database;
    await createUser(db, { email: 'pending@example.com', password: PASSWORD, status: 'PENDING' });
    await createUser(db, { email: 'declined@example.com', password: PASSWORD, status: 'DECLINED' });
    await createUser(db, { email: 'blocked@example.com', password: PASSWORD, status: 'BLOCKED' });
    await createUser(db, {
      email: 'unverified@example.com',
      password: PASSWORD,
      status: 'VERIFIED',
      email_verified: false,
    });
    await createUser(db, {
      email: 'tenant@example.com',
      password: PASSWORD,
      status: 'VERIFIED',
      roles: ['tenant'],
    });
  });
  afterAll(() => harness.close());

  async function attempt(username: string, password: string, request: Record<string, string> = {}) {
    const browser = new TestBrowser();
    const { requestId } = await startAuthorization(harness, browser, createPkce(), request);
    const response = await postLogin(harness, browser, { username, password, requestId });
    return { browser, requestId, response };
  }

  async function subOf(email: string): Promise<string> {
    const user = await findUserByEmail(harness.database.db, email);
    if (!user) throw new Error(`no user ${email}`);
    return user.sub;
  }

  it('sends a wrong password back to the hosted page with the sub and a masked sub, as cidaas does', async () => {
    const { requestId, response } = await attempt(' Demo@Concierge.test ', 'Wrong-Passw0rd!');
    const location = loginRedirect(response);
    const sub = await subOf(DEMO_USER.email);
    expect(Object.fromEntries(location.searchParams)).toEqual({
      ...HOSTED_PAGE_PARAMS,
      error: 'invalid_username_password',
      username: 'Demo@Concierge.test',
      username_type: 'email',
      sub,
      q: `${sub.slice(0, 4)}****`,
      requestId,
    });
  });

  it('answers an unknown e-mail with the same error and a description instead of a sub', async () => {
    const { requestId, response } = await attempt('nobody@example.com', 'Wrong-Passw0rd!');
    const location = loginRedirect(response);
    expect(Object.fromEntries(location.searchParams)).toEqual({
      ...HOSTED_PAGE_PARAMS,
      error: 'invalid_username_password',
      error_description: 'Given username or password is invalid',
      username: 'nobody@example.com',
      username_type: 'email',
      requestId,
    });
  });

  it.each([
    ['DECLINED', 'declined@example.com'],
    ['BLOCKED', 'blocked@example.com'],
  ])('answers a %s user with the right password like a wrong password', async (_status, email) => {
    const location = loginRedirect((await attempt(email, PASSWORD)).response);
    expect(location.searchParams.get('error')).toBe('invalid_username_password');
    expect(location.searchParams.get('sub')).toBe(await subOf(email));
    expect(location.searchParams.has('error_description')).toBe(false);
  });

  it('tells a PENDING user with the right password that the e-mail is not verified', async () => {
    const { requestId, response } = await attempt('pending@example.com', PASSWORD);
    const location = loginRedirect(response);
    const sub = await subOf('pending@example.com');
    expect(Object.fromEntries(location.searchParams)).toEqual({
      ...HOSTED_PAGE_PARAMS,
      error: 'email_not_verified',
      username: 'pending@example.com',
      username_type: 'email',
      sub,
      q: `${sub.slice(0, 4)}****`,
      requestId,
    });
  });

  it('tells a VERIFIED user with an unverified e-mail so only after the right password', async () => {
    const right = loginRedirect((await attempt('unverified@example.com', PASSWORD)).response);
    expect(right.searchParams.get('error')).toBe('email_not_verified');
    const wrong = loginRedirect((await attempt('unverified@example.com', 'Wrong-Passw0rd!')).response);
    expect(wrong.searchParams.get('error')).toBe('invalid_username_password');
  });

  it("denies a user who lacks the client's roles, on the portal's /login without any subdomain", async () => {
    const { requestId, response } = await attempt(DEMO_USER.email, DEMO_USER.password, roleClientRequest);
    const location = loginRedirect(response);
    const sub = await subOf(DEMO_USER.email);
    // ROLE_CLIENT has no hosted_page_url; its subdomain only brands e-mails.
    expect(Object.fromEntries(location.searchParams)).toEqual({
      groupname: 'default',
      lang: '',
      view_type: 'login',
      error: 'access_denied',
      username: DEMO_USER.email,
      username_type: 'email',
      sub,
      q: `${sub.slice(0, 4)}****`,
      requestId,
    });
  });

  it('lets a user with the required roles through to the client', async () => {
    const { browser, response } = await attempt('tenant@example.com', PASSWORD, roleClientRequest);
    const callback = await browser.followUntil(response.headers.get('location') ?? '', (url) =>
      url.startsWith(RP_URL),
    );
    expect(callback.pathname).toBe('/role-callback');
    expect(callback.searchParams.get('code')).toBeTruthy();
  });

  it('does not let an existing session open a client whose roles the user lacks', async () => {
    const browser = new TestBrowser();
    await signIn(harness, browser, { email: DEMO_USER.email, password: DEMO_USER.password });
    const { loginUrl } = await startAuthorization(harness, browser, createPkce(), roleClientRequest);
    expect(loginUrl.searchParams.get('error')).toBe('access_denied');
  });

  it('sends an existing session back to the login page once its user is locked', async () => {
    const email = 'soon-locked@example.com';
    const created = await createUser(harness.database.db, { email, password: PASSWORD, status: 'VERIFIED' });
    if (!created.isCreated) throw new Error('user not created');
    const browser = new TestBrowser();
    await signIn(harness, browser, { email, password: PASSWORD });
    expect(await changeUserStatus(harness.database.db, created.sub, 'DECLINED', 'test')).toMatchObject({
      result: 'updated',
    });
    const { loginUrl } = await startAuthorization(harness, browser, createPkce());
    expect(loginUrl.searchParams.get('requestId')).toBeTruthy();
  });

  it('binds a finished login to the browser that started it', async () => {
    const { response } = await attempt(DEMO_USER.email, DEMO_USER.password);
    const resume = response.headers.get('location') ?? '';
    expect(resume.startsWith(harness.baseUrl)).toBe(true);
    const stranger = await new TestBrowser().fetch(resume);
    expect(stranger.status).toBe(400);
    expect(await stranger.text()).not.toContain('code=');
  });

  it("sends an unknown or expired requestId to the portal's /login with session_expired, the dead id and the e-mail", async () => {
    const response = await postLogin(harness, new TestBrowser(), {
      username: DEMO_USER.email,
      password: DEMO_USER.password,
      requestId: 'no-such-request',
      subdomain: 'demo',
    });
    expect(response.status).toBe(303);
    // The dead id lets the portal find the tenant it served it to; the e-mail fills the form again.
    expect(response.headers.get('location')).toBe(
      `${PORTAL_URL}/login?error=session_expired&requestId=no-such-request&username=${encodeURIComponent(DEMO_USER.email)}`,
    );
  });

  it('sends a form without password back to the hosted page when the request is known', async () => {
    const browser = new TestBrowser();
    const { requestId } = await startAuthorization(harness, browser, createPkce());
    const response = await postLogin(harness, browser, { username: DEMO_USER.email, requestId });
    const location = loginRedirect(response);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('subdomain')).toBe('demo');
    expect(location.searchParams.get('requestId')).toBe(requestId);
  });

  it('leaves a username longer than any e-mail out of the redirect instead of echoing it', async () => {
    const browser = new TestBrowser();
    const { requestId } = await startAuthorization(harness, browser, createPkce());
    const username = `${'a'.repeat(60_000)}@example.ch`;
    const response = await postLogin(harness, browser, { username, password: 'x', requestId });
    expect(response.headers.get('location')?.length).toBeLessThan(2_000);
    const location = loginRedirect(response);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('requestId')).toBe(requestId);
    expect(location.searchParams.has('username')).toBe(false);
  });

  it('answers a form without requestId with a 400 envelope, not a server error', async () => {
    const response = await postLogin(harness, new TestBrowser(), {
      username: DEMO_USER.email,
      password: 'x',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      success: false,
      status: 400,
      error: { code: 10000, status: 400, moreInfo: '', type: 'ValidationException' },
    });
  });

  it('answers an unparseable body with a 400 envelope', async () => {
    const response = await fetch(`${harness.baseUrl}/login-srv/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"username":',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ success: false, status: 400, error: { code: 10000 } });
  });
});

describe('POST /login-srv/login without the verification pre-check', () => {
  let harness: ProviderHarness;
  beforeAll(async () => {
    harness = await startProvider([], { env: { PROVIDER_REQUIRE_VERIFIED_EMAIL: 'false' } });
  });
  afterAll(() => harness.close());

  it('signs in a VERIFIED user whose e-mail is not verified, and userinfo says so', async () => {
    const email = 'unverified@example.com';
    await createUser(harness.database.db, { email, password: PASSWORD, email_verified: false });
    const { code, pkce } = await signIn(harness, new TestBrowser(), { email, password: PASSWORD });
    const tokens = await exchangeCode(harness, code, pkce);
    const userinfo = await fetch(`${harness.baseUrl}/users-srv/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(await userinfo.json()).toMatchObject({ email, email_verified: false });
  });

  it('still tells a PENDING user that the e-mail is not verified', async () => {
    const email = 'pending@example.com';
    await createUser(harness.database.db, { email, password: PASSWORD, status: 'PENDING' });
    const browser = new TestBrowser();
    const { requestId } = await startAuthorization(harness, browser, createPkce());
    const response = await postLogin(harness, browser, { username: email, password: PASSWORD, requestId });
    expect(loginRedirect(response).searchParams.get('error')).toBe('email_not_verified');
  });
});
