import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPkce,
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
import { createUser, DEMO_USER } from '../users/users';

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

  it('sends a wrong password back to the login page with the entered e-mail', async () => {
    const { requestId, response } = await attempt(' Demo@Concierge.test ', 'Wrong-Passw0rd!');
    const location = loginRedirect(response);
    expect(Object.fromEntries(location.searchParams)).toEqual({
      requestId,
      subdomain: 'demo',
      error: 'invalid_username_password',
      error_description: 'Incorrect username or password',
      username: 'Demo@Concierge.test',
    });
  });

  it('answers an unknown e-mail exactly like a wrong password', async () => {
    const { requestId, response } = await attempt('nobody@example.com', 'Wrong-Passw0rd!');
    const location = loginRedirect(response);
    expect(Object.fromEntries(location.searchParams)).toEqual({
      requestId,
      subdomain: 'demo',
      error: 'invalid_username_password',
      error_description: 'Incorrect username or password',
      username: 'nobody@example.com',
    });
  });

  it('answers a locked (DECLINED) user with the right password like a wrong password', async () => {
    const location = loginRedirect((await attempt('declined@example.com', PASSWORD)).response);
    expect(location.searchParams.get('error')).toBe('invalid_username_password');
  });

  it('tells a PENDING user with the right password that the e-mail is not verified', async () => {
    const location = loginRedirect((await attempt('pending@example.com', PASSWORD)).response);
    expect(location.searchParams.get('error')).toBe('email_not_verified');
    expect(location.searchParams.get('username')).toBe('pending@example.com');
  });

  it('denies a user who lacks the roles the client requires', async () => {
    const { response } = await attempt(DEMO_USER.email, DEMO_USER.password, roleClientRequest);
    const location = loginRedirect(response);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('subdomain')).toBe('acme');
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
    await changeUserStatus(harness.database.db, created.sub, 'DECLINED', 'test');
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

  it('answers an unknown or expired requestId with session_expired', async () => {
    const response = await postLogin(harness, new TestBrowser(), {
      username: DEMO_USER.email,
      password: DEMO_USER.password,
      requestId: 'no-such-request',
      subdomain: 'demo',
    });
    const location = loginRedirect(response);
    expect(Object.fromEntries(location.searchParams)).toEqual({
      subdomain: 'demo',
      error: 'session_expired',
      error_description: 'the sign-in request has expired, please start again',
    });
  });

  it('sends a form without password back to the login page when the request is known', async () => {
    const browser = new TestBrowser();
    const { requestId } = await startAuthorization(harness, browser, createPkce());
    const response = await postLogin(harness, browser, { username: DEMO_USER.email, requestId });
    const location = loginRedirect(response);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('requestId')).toBe(requestId);
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
      error: { code: 'invalid_request', type: 'ValidationException' },
    });
  });

  it('answers an unparseable body with a 400 envelope', async () => {
    const response = await fetch(`${harness.baseUrl}/login-srv/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"username":',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ success: false, status: 400 });
  });
});
