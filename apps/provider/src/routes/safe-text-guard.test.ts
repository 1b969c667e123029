import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminToken,
  PORTAL_URL,
  type ProviderHarness,
  RP_CLIENT_ID,
  RP_REDIRECT_URI,
  startProvider,
} from '../test-support/provider-harness';

// Issue "Hardening", point 1: the requests the issue lists answer 400 ValidationException (10000).

let harness: ProviderHarness;
let token: string;
beforeAll(async () => {
  harness = await startProvider();
  token = await adminToken(harness);
}, 120_000);
afterAll(() => harness?.close());

const REFUSED = { success: false, status: 400, error: { code: 10000, type: 'ValidationException' } };
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const json = { 'content-type': 'application/json' };

describe('unsafe text at the provider', () => {
  it.each([
    ['the login form username', '/login-srv/login', form, 'username=a%00b%40x.ch&password=p&requestId=r'],
    ['the login form requestId', '/login-srv/login', form, 'username=a%40x.ch&password=p&requestId=%00'],
    [
      'the login form, as JSON',
      '/login-srv/login',
      json,
      '{"username":"a\\ud800@x.ch","password":"p","requestId":"r"}',
    ],
    ['user existence', '/useractions-srv/userexistence/r', json, '{"email":"a\\u0000b@x.ch"}'],
    [
      'the token endpoint client_id',
      '/token-srv/token',
      form,
      'grant_type=authorization_code&client_id=a%00&code=c',
    ],
    [
      'the token endpoint code',
      '/token-srv/token',
      form,
      `grant_type=authorization_code&client_id=${RP_CLIENT_ID}&code=%00`,
    ],
    [
      'the token endpoint, as JSON',
      '/token-srv/token',
      json,
      '{"grant_type":"client_credentials","client_id":"a\\u0000"}',
    ],
    ['introspection', '/token-srv/introspect', form, 'token=t&client_id=%00'],
    ['revocation', '/token-srv/revoke', form, 'token=%1B&client_id=c'],
    ['a form with malformed percent-encoding', '/token-srv/token', form, 'grant_type=%E0%A4%A'],
  ])('POST %s', async (_case, url, headers, payload) => {
    const response = await harness.app.inject({
      method: 'POST',
      url,
      headers: { origin: PORTAL_URL, ...headers },
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject(REFUSED);
  });

  it.each([
    '/public-srv/public/%00',
    '/public-srv/public/%E0%A4%A',
    `/authz-srv/authz?client_id=a%00b&redirect_uri=${encodeURIComponent(RP_REDIRECT_URI)}`,
    '/authz-srv/authz?client_id=%ED%A0%80',
    '/.well-known/openid-configuration?x=%E0%A4%A',
    '/users-srv/internal/userinfo/profile/%00',
  ])('GET %s', async (url) => {
    const response = await harness.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject(REFUSED);
  });

  it('checks the admin token before the body', async () => {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/user-srv/graph/users',
      headers: json,
      payload: '{"fieldsFilter":[{"field":"email","value":["a\\u0000"]}]}',
    });
    expect(response.statusCode).toBe(401);
  });

  it('hands a checked form body on to oidc-provider unchanged', async () => {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/token-srv/token',
      headers: form,
      payload: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: harness.config.adminClient.clientId,
        client_secret: harness.config.adminClient.clientSecret,
      }).toString(),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String) });
    const generated = await harness.app.inject({
      method: 'POST',
      url: '/authz-srv/authrequest/authz/generate',
      headers: json,
      payload: JSON.stringify({ client_id: RP_CLIENT_ID, redirect_uri: RP_REDIRECT_URI }),
    });
    expect(generated.statusCode).toBe(200);
  });

  it('answers an oversized OIDC form body 413 over a real connection, and NUL 400 too', async () => {
    const big = await fetch(`${harness.baseUrl}/token-srv/token`, {
      method: 'POST',
      headers: form,
      body: `grant_type=client_credentials&padding=${'x'.repeat(60 * 1024)}`,
    });
    expect(big.status).toBe(413);
    const nul = await fetch(`${harness.baseUrl}/token-srv/token`, {
      method: 'POST',
      headers: form,
      body: 'grant_type=client_credentials&client_id=%00',
    });
    expect(nul.status).toBe(400);
    expect(await nul.json()).toMatchObject(REFUSED);
  });
});
