import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPkce,
  exchangeCode,
  PORTAL_URL,
  type ProviderHarness,
  postLogin,
  RP_CLIENT_ID,
  RP_REDIRECT_URI,
  RP_URL,
  startAuthorization,
  startProvider,
} from '../test-support/provider-harness';
import { TestBrowser } from '../test-support/test-browser';
import { DEMO_USER } from '../users/users';

const GENERATE_PATH = '/authz-srv/authrequest/authz/generate';

describe('POST /authz-srv/authrequest/authz/generate', () => {
  let harness: ProviderHarness;
  beforeAll(async () => {
    harness = await startProvider();
  });
  afterAll(() => harness.close());

  function generate(browser: TestBrowser, body: unknown, origin: string | null = PORTAL_URL) {
    return browser.fetch(`${harness.baseUrl}${GENERATE_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  }

  const request = {
    client_id: RP_CLIENT_ID,
    redirect_uri: RP_REDIRECT_URI,
    response_type: 'code',
    scope: 'openid email profile mobile',
    nonce: 'nonce-1',
  };

  it("gives a requestId that any browser's login form finishes with the id alone, as cidaas does", async () => {
    // Asked for by the portal's server: no browser, no cookies, no origin.
    const generated = await generate(new TestBrowser(), request, null);
    expect(generated.status).toBe(200);
    const body = (await generated.json()) as {
      success: boolean;
      status: number;
      data: { requestId: string };
    };
    expect(body).toEqual({
      success: true,
      status: 200,
      data: { groupname: 'default', lang: '', view_type: 'login', requestId: expect.any(String) },
    });
    const { requestId } = body.data;

    // It is a real request: the hosted pages can read its client.
    const info = (await (await fetch(`${harness.baseUrl}/public-srv/public/${requestId}`)).json()) as {
      data: { client_name: string };
    };
    expect(info.data.client_name).toBe('Demo Immobilien AG');

    const browser = new TestBrowser();
    const login = await postLogin(harness, browser, {
      username: DEMO_USER.email,
      password: DEMO_USER.password,
      requestId,
    });
    expect(login.status).toBe(303);
    const callback = await browser.followUntil(login.headers.get('location') ?? '', (url) =>
      url.startsWith(RP_URL),
    );
    expect(`${callback.origin}${callback.pathname}`).toBe(RP_REDIRECT_URI);
    expect(callback.searchParams.get('code')).toBeTruthy();
    expect(callback.searchParams.get('state')).toBeTruthy();

    // The relying party does not know that state and starts a normal sign-in: no login page now.
    const pkce = createPkce();
    const authorize = await browser.fetch(
      `${harness.baseUrl}/authz-srv/authz?${new URLSearchParams({
        client_id: RP_CLIENT_ID,
        response_type: 'code',
        scope: 'openid email profile mobile',
        redirect_uri: RP_REDIRECT_URI,
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
        state: 'rp-state',
      })}`,
    );
    const second = new URL(authorize.headers.get('location') ?? '');
    expect(`${second.origin}${second.pathname}`).toBe(RP_REDIRECT_URI);
    expect(second.searchParams.get('state')).toBe('rp-state');
    const tokens = await exchangeCode(harness, second.searchParams.get('code') ?? '', pkce);
    expect(tokens.access_token).toBeTruthy();
  });

  it('leaves no session and no code behind a wrong password', async () => {
    const generated = await generate(new TestBrowser(), request, null);
    const { data } = (await generated.json()) as { data: { requestId: string } };
    const browser = new TestBrowser();
    const login = await postLogin(harness, browser, {
      username: DEMO_USER.email,
      password: 'not-the-password',
      requestId: data.requestId,
    });
    const back = new URL(login.headers.get('location') ?? '');
    expect(back.searchParams.get('error')).toBe('invalid_username_password');
    expect(login.headers.get('set-cookie')).toBeNull();
  });

  it('asks for a login even when the browser is signed in already', async () => {
    const browser = new TestBrowser();
    const { requestId } = await startAuthorization(harness, browser, createPkce());
    const login = await postLogin(harness, browser, {
      username: DEMO_USER.email,
      password: DEMO_USER.password,
      requestId,
    });
    await browser.followUntil(login.headers.get('location') ?? '', (url) => url.startsWith(RP_URL));
    const generated = await generate(browser, request);
    expect(((await generated.json()) as { data: { requestId: string } }).data.requestId).toBeTruthy();
  });

  it('fills in response_type and scope when they are left out', async () => {
    const response = await generate(new TestBrowser(), {
      client_id: RP_CLIENT_ID,
      redirect_uri: RP_REDIRECT_URI,
    });
    expect(response.status).toBe(200);
  });

  it.each([
    ['an unknown client', { ...request, client_id: 'nobody' }, /^invalid_client: /],
    [
      'an unregistered redirect_uri',
      { ...request, redirect_uri: `${RP_URL}/elsewhere` },
      /^invalid_redirect_uri: /,
    ],
    ['a client without the code flow', { ...request, client_id: 'concierge-server' }, /^invalid_client: /],
    ['another response_type', { ...request, response_type: 'token' }, /^unsupported_response_type: /],
    ['a scope without openid', { ...request, scope: 'email' }, /^invalid_request: /],
    // A body that does not validate names the field.
    ['a missing client_id', { redirect_uri: RP_REDIRECT_URI }, /^client_id: /],
  ])('answers %s with a 400 envelope, code 10000', async (_name, body, message) => {
    const response = await generate(new TestBrowser(), body);
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { error: { error: string } };
    expect(answer).toMatchObject({ success: false, status: 400, error: { code: 10000, status: 400 } });
    expect(answer.error.error).toMatch(message);
  });

  it('answers broken JSON and other media types with 4xx envelopes', async () => {
    const broken = await generate(new TestBrowser(), '{"client_id":');
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ success: false, status: 400 });
    const text = await fetch(`${harness.baseUrl}${GENERATE_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'client_id=x',
    });
    expect(text.status).toBe(415);
    expect(await text.json()).toMatchObject({ success: false, status: 415 });
  });

  it('refuses a browser on another origin and lets the server call without one', async () => {
    const foreign = await generate(new TestBrowser(), request, 'http://evil.test');
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ success: false, status: 403, error: { code: 403 } });
    expect((await generate(new TestBrowser(), request, null)).status).toBe(200);
  });

  it('allows the portal a credentialed CORS preflight', async () => {
    const response = await fetch(`${harness.baseUrl}${GENERATE_PATH}`, {
      method: 'OPTIONS',
      headers: {
        origin: PORTAL_URL,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(PORTAL_URL);
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
  });
});
