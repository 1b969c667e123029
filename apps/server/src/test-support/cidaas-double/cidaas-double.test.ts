import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CidaasDouble } from './cidaas-double';
import {
  ADMIN,
  admin,
  adminToken,
  expectRefusal,
  formInit,
  jsonInit,
  send,
  startDouble,
} from './test-helpers';

// The double's own plumbing: tokens, the admin guard, the envelope for bad input, the request log.
// The calls themselves are proven in hosted-page, login, admin-api, reset and webhooks tests.

let double: CidaasDouble;
beforeEach(async () => {
  double = await startDouble();
});
afterEach(() => double.close());

describe('token-srv/token (client credentials)', () => {
  const form = {
    grant_type: 'client_credentials',
    client_id: ADMIN.clientId,
    client_secret: ADMIN.clientSecret,
  };

  it('issues a bearer token for the admin client, from the form', async () => {
    const answer = await send(double, 'POST', '/token-srv/token', formInit(form));
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 86400,
    });
  });

  it('takes the credentials from HTTP Basic too', async () => {
    const basic = Buffer.from(`${ADMIN.clientId}:${ADMIN.clientSecret}`).toString('base64');
    const init = formInit({ grant_type: 'client_credentials' }, { authorization: `Basic ${basic}` });
    expect((await send(double, 'POST', '/token-srv/token', init)).status).toBe(200);
  });

  it('refuses a wrong secret with 401 invalid_client and another grant with 400', async () => {
    const wrong = await send(double, 'POST', '/token-srv/token', formInit({ ...form, client_secret: 'x' }));
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual({ error: 'invalid_client' });
    const grant = await send(
      double,
      'POST',
      '/token-srv/token',
      formInit({ ...form, grant_type: 'password' }),
    );
    expect(grant.status).toBe(400);
  });
});

describe('admin guard', () => {
  const search = (headers: Record<string, string>) =>
    send(double, 'POST', '/users-srv/user/search', jsonInit({ email: 'a@example.com' }, headers));

  it('answers 401 in the envelope without a token or with one it did not issue', async () => {
    expectRefusal(await search({}), 401, 401, 'AuthorizationException');
    expectRefusal(await search({ authorization: 'Bearer made-up' }), 401, 401);
  });

  it('accepts its own token until revokeTokens()', async () => {
    const authorization = `Bearer ${await adminToken(double)}`;
    expect((await search({ authorization })).status).toBe(200);
    double.revokeTokens();
    expectRefusal(await search({ authorization }), 401, 401);
  });
});

describe('malformed input', () => {
  it('answers broken JSON with 400 + 10000, never a 5xx', async () => {
    const init = { headers: { 'content-type': 'application/json' }, body: '{"email":' };
    expectRefusal(await send(double, 'POST', '/useractions-srv/userexistence/x', init), 400, 10000);
  });

  it('answers a wrong shape, an empty body and an unknown content type with 400 + 10000', async () => {
    expectRefusal(await admin(double, 'POST', '/users-srv/user/search', { email: 42 }), 400, 10000);
    const empty = { headers: { 'content-type': 'application/json' } };
    expectRefusal(await send(double, 'POST', '/authz-srv/authrequest/authz/generate', empty), 400, 10000);
    const xml = { headers: { 'content-type': 'application/xml' }, body: '<a/>' };
    expectRefusal(await send(double, 'POST', '/authz-srv/authrequest/authz/generate', xml), 400, 10000);
  });

  it('answers a call outside the protocol with 404 and a code that is not 10301', async () => {
    const answer = await admin(double, 'GET', '/users-srv/nothing-here');
    expectRefusal(answer, 404, 404, 'RouteException');
  });
});

describe('requests', () => {
  it('records method, path, query, lower-case headers and the parsed body of every request', async () => {
    // admin() asks for a token first: the log holds the token request, then the search.
    await admin(double, 'POST', '/users-srv/user/search?x=1', { email: 'a@example.com' }, { 'X-Trace': 't' });
    const [token, search] = double.requests;
    expect(search).toMatchObject({
      method: 'POST',
      path: '/users-srv/user/search',
      query: { x: '1' },
      headers: { 'x-trace': 't', 'content-type': 'application/json' },
      body: { email: 'a@example.com' },
    });
    expect(search?.headers.authorization).toMatch(/^Bearer /);
    expect(token?.body).toMatchObject({ grant_type: 'client_credentials', client_id: ADMIN.clientId });
  });

  // A refused token is checked before parsing, so such a request is logged without its body too.
  it('records a request whose body could not be parsed, without a body', async () => {
    const init = { headers: { 'content-type': 'application/json' }, body: 'nope' };
    await send(double, 'POST', '/users-srv/register', init);
    expect(double.requests).toMatchObject([{ path: '/users-srv/register', body: undefined }]);
  });
});

describe('control', () => {
  it('gives out copies of its users and refuses a second user with the same e-mail', async () => {
    const { sub } = double.addUser({ email: 'Ann@Example.com', password: 'pw' });
    const user = double.user('ann@example.com');
    expect(user).toEqual({
      sub,
      email: 'ann@example.com',
      password: 'pw',
      userStatus: 'VERIFIED',
      email_verified: true,
      failedAttempts: 0,
    });
    if (user) user.password = 'changed';
    expect(double.user('ann@example.com')?.password).toBe('pw');
    expect(() => double.addUser({ email: 'ann@example.com', password: 'x' })).toThrow();
  });

  it('reads the variants on every call, whether a field or the whole object is replaced', async () => {
    const exists = () =>
      admin(double, 'POST', '/useractions-srv/userexistence', { email: 'nobody@example.com' });
    expect((await exists()).status).toBe(204);
    double.variants.userNotFound = '417';
    expect((await exists()).status).toBe(417);
    double.variants = { ...double.variants, userNotFound: '404' };
    expect((await exists()).status).toBe(404);
  });
});
