import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminToken,
  createPkce,
  exchangeCode,
  PORTAL_URL,
  type ProviderHarness,
  RP_CLIENT_ID,
  RP_REDIRECT_URI,
  RP_URL,
  signIn,
  startAuthorization,
  startProvider,
  type TokenSet,
} from '../test-support/provider-harness';
import { TestBrowser } from '../test-support/test-browser';
import { DEMO_USER } from '../users/users';

const demo = { email: DEMO_USER.email, password: DEMO_USER.password };

function decodeJwtPayload(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8'));
}

// A client registered without a hosted page URL: its subdomain only brands e-mails.
const PLAIN_CLIENT = {
  client_id: 'plain-portal',
  token_endpoint_auth_method: 'none',
  grant_types: ['authorization_code'],
  redirect_uris: [`${RP_URL}/plain-callback`],
  subdomain: 'plain',
};

describe('OIDC endpoints of the embedded provider', () => {
  let harness: ProviderHarness;
  beforeAll(async () => {
    harness = await startProvider([PLAIN_CLIENT]);
  });
  afterAll(() => harness.close());

  it('publishes the cidaas endpoint paths in discovery', async () => {
    const response = await fetch(`${harness.baseUrl}/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    const discovery = (await response.json()) as { scopes_supported: string[]; jwks_uri: string };
    const base = harness.baseUrl;
    expect(discovery).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/authz-srv/authz`,
      token_endpoint: `${base}/token-srv/token`,
      userinfo_endpoint: `${base}/users-srv/userinfo`,
      jwks_uri: `${base}/.well-known/jwks.json`,
      introspection_endpoint: `${base}/token-srv/introspect`,
      revocation_endpoint: `${base}/token-srv/revoke`,
      end_session_endpoint: `${base}/session/end_session`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
    });
    expect(discovery.scopes_supported).toEqual(
      expect.arrayContaining(['openid', 'email', 'profile', 'mobile']),
    );
    const jwks = (await (await fetch(discovery.jwks_uri)).json()) as { keys: Record<string, unknown>[] };
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', use: 'sig', alg: 'RS256' });
    expect(jwks.keys[0]?.d).toBeUndefined();
  });

  it("sends an authorization request without a session to the client's hosted page, as cidaas does", async () => {
    const { requestId, loginUrl } = await startAuthorization(harness, new TestBrowser(), createPkce());
    expect(`${loginUrl.origin}${loginUrl.pathname}`).toBe(`${PORTAL_URL}/login`);
    // The configured URL's own query first, then cidaas's parameters with an empty lang.
    expect(loginUrl.search).toBe(
      `?subdomain=demo&groupname=default&lang=&view_type=login&requestId=${requestId}`,
    );
    expect(requestId.length).toBeGreaterThan(10);
  });

  it('never adds a subdomain that the hosted page URL does not carry', async () => {
    const { requestId, loginUrl } = await startAuthorization(harness, new TestBrowser(), createPkce(), {
      client_id: PLAIN_CLIENT.client_id,
      redirect_uri: `${RP_URL}/plain-callback`,
    });
    expect(loginUrl.href).toBe(
      `${PORTAL_URL}/login?groupname=default&lang=&view_type=login&requestId=${requestId}`,
    );
  });

  it('refuses an authorization request without PKCE', async () => {
    const url = new URL(`${harness.baseUrl}/authz-srv/authz`);
    url.search = new URLSearchParams({
      client_id: RP_CLIENT_ID,
      response_type: 'code',
      scope: 'openid',
      redirect_uri: RP_REDIRECT_URI,
      state: 's',
    }).toString();
    const response = await fetch(url, { redirect: 'manual' });
    const location = new URL(response.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(RP_REDIRECT_URI);
    expect(location.searchParams.get('error')).toBe('invalid_request');
  });

  it('completes the code flow with PKCE, and userinfo tells the e-mail', async () => {
    const browser = new TestBrowser();
    const { code, pkce, callback } = await signIn(harness, browser, demo);
    expect(callback.searchParams.get('state')).toBe('state-123');
    const tokens = await exchangeCode(harness, code, pkce);
    expect(tokens.token_type).toBe('Bearer');
    const idToken = decodeJwtPayload(tokens.id_token);
    expect(idToken).toMatchObject({ iss: harness.baseUrl, aud: RP_CLIENT_ID, nonce: 'nonce-123' });

    const userinfo = await fetch(`${harness.baseUrl}/users-srv/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(userinfo.status).toBe(200);
    expect(await userinfo.json()).toEqual({
      sub: idToken.sub,
      email: DEMO_USER.email,
      email_verified: true,
      given_name: 'Demo',
      family_name: 'Mieter',
      locale: 'de',
    });
  });

  it('signs in a second client request from the same browser without the login page', async () => {
    const browser = new TestBrowser();
    await signIn(harness, browser, demo);
    const pkce = createPkce();
    const url = new URL(`${harness.baseUrl}/authz-srv/authz`);
    url.search = new URLSearchParams({
      client_id: RP_CLIENT_ID,
      response_type: 'code',
      scope: 'openid email',
      redirect_uri: RP_REDIRECT_URI,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    }).toString();
    const callback = await browser.followUntil(url.href, (next) => next.startsWith(RP_URL));
    expect(callback.searchParams.get('code')).toBeTruthy();
  });

  it('issues a refresh token without offline_access, and the refresh grant works', async () => {
    const { code, pkce } = await signIn(harness, new TestBrowser(), demo);
    const tokens = await exchangeCode(harness, code, pkce);
    expect(tokens.refresh_token).toBeTruthy();
    const response = await fetch(`${harness.baseUrl}/token-srv/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token ?? '',
        client_id: RP_CLIENT_ID,
      }).toString(),
    });
    expect(response.status).toBe(200);
    const refreshed = (await response.json()) as TokenSet;
    expect(refreshed.access_token).toBeTruthy();
    expect(refreshed.access_token).not.toBe(tokens.access_token);
  });

  it('accepts a JSON body at the token endpoint, as cidaas does', async () => {
    const { code, pkce } = await signIn(harness, new TestBrowser(), demo);
    const response = await fetch(`${harness.baseUrl}/token-srv/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'authorization_code',
        code,
        redirect_uri: RP_REDIRECT_URI,
        client_id: RP_CLIENT_ID,
        code_verifier: pkce.verifier,
      }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as TokenSet).id_token).toBeTruthy();
  });

  it('answers a malformed JSON token request with invalid_request, not a server error', async () => {
    const response = await fetch(`${harness.baseUrl}/token-srv/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"grant_type": ',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('lets the admin client authenticate with HTTP Basic as well as in the body', async () => {
    const { clientId, clientSecret } = harness.config.adminClient;
    const basic = await fetch(`${harness.baseUrl}/token-srv/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
      },
      body: 'grant_type=client_credentials&scope=cidaas%3Ausers_read',
    });
    expect(basic.status).toBe(200);
    expect(await basic.json()).toMatchObject({ token_type: 'Bearer', scope: 'cidaas:users_read' });
    expect(await adminToken(harness)).toBeTruthy();
    const wrongSecret = await fetch(`${harness.baseUrl}/token-srv/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: 'wrong-secret-123',
      }),
    });
    expect(wrongSecret.status).toBe(401);
  });

  it('introspects for the admin client and revokes for the owning client', async () => {
    const { code, pkce } = await signIn(harness, new TestBrowser(), demo);
    const tokens = await exchangeCode(harness, code, pkce);
    const { clientId, clientSecret } = harness.config.adminClient;
    const introspect = () =>
      fetch(`${harness.baseUrl}/token-srv/introspect`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          token: tokens.refresh_token,
          client_id: clientId,
          client_secret: clientSecret,
        }),
      });
    expect(await (await introspect()).json()).toMatchObject({ active: true, client_id: RP_CLIENT_ID });
    const revoke = await fetch(`${harness.baseUrl}/token-srv/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.refresh_token ?? '', client_id: RP_CLIENT_ID }).toString(),
    });
    expect(revoke.status).toBe(200);
    expect(await (await introspect()).json()).toEqual({ active: false });
  });

  it('allows the relying party origin to call the token endpoint cross-origin', async () => {
    const response = await fetch(`${harness.baseUrl}/token-srv/token`, {
      method: 'OPTIONS',
      headers: { origin: RP_URL, 'access-control-request-method': 'POST' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(RP_URL);
  });

  it('signs out with a valid id_token_hint without a confirmation page', async () => {
    const browser = new TestBrowser();
    const { code, pkce } = await signIn(harness, browser, demo);
    const tokens = await exchangeCode(harness, code, pkce);
    const endSession = new URL(`${harness.baseUrl}/session/end_session`);
    endSession.search = new URLSearchParams({
      id_token_hint: tokens.id_token,
      post_logout_redirect_uri: `${RP_URL}/`,
      state: 'bye',
    }).toString();
    const page = await browser.fetch(endSession.href);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toMatch(/do you want to sign-?out/i);
    expect(html).toContain('.submit()');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');

    // What the auto-submitting form posts.
    const action = /action="([^"]+)"/.exec(html)?.[1] ?? '';
    const fields = Object.fromEntries(
      [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)].map((m) => [m[1], m[2]]),
    );
    expect(fields.logout).toBe('yes');
    const confirm = await browser.fetch(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    expect(confirm.status).toBe(303);
    expect(confirm.headers.get('location')).toBe(`${RP_URL}/?state=bye`);

    // The session is gone: the next request goes to the login page again, and the refresh token died.
    const again = await startAuthorization(harness, browser, createPkce());
    expect(again.loginUrl.pathname).toBe('/login');
    const refresh = await fetch(`${harness.baseUrl}/token-srv/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token ?? '',
        client_id: RP_CLIENT_ID,
      }).toString(),
    });
    expect(refresh.status).toBe(400);
  });

  it('asks once before signing out when no id_token_hint proves the request', async () => {
    const browser = new TestBrowser();
    await signIn(harness, browser, demo);
    const page = await browser.fetch(`${harness.baseUrl}/session/end_session`);
    const html = await page.text();
    expect(html).toContain('<button type="submit" form="op.logoutForm"');
    expect(html).not.toContain('<script>');
  });
});
