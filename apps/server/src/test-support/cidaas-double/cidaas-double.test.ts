import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CidaasDouble } from './cidaas-double';
import {
  ADMIN,
  admin,
  adminToken,
  expectAccessDenied,
  expectRefusal,
  formInit,
  jsonInit,
  send,
  startDouble,
} from './test-helpers';

// The double's own plumbing: tokens, the admin guard, bad input, the request log, its controls. What
// the server's provider client reads of each call is proven by provider-client/conformance.test.ts.

let double: CidaasDouble;
beforeEach(async () => {
  double = await startDouble();
});
afterEach(() => double.close());

const SEARCH = '/user-srv/graph/users';
const searchBody = { fieldsFilter: [{ field: 'email', value: ['a@example.com'] }] };

describe('token-srv/token (client credentials)', () => {
  const form = {
    grant_type: 'client_credentials',
    client_id: ADMIN.clientId,
    client_secret: ADMIN.clientSecret,
  };

  it('issues a bearer token from the form or HTTP Basic; refuses a wrong secret and another grant', async () => {
    const answer = await send(double, 'POST', '/token-srv/token', formInit(form));
    expect(answer.json).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 86400,
    });
    const basic = Buffer.from(`${ADMIN.clientId}:${ADMIN.clientSecret}`).toString('base64');
    const init = formInit({ grant_type: 'client_credentials' }, { authorization: `Basic ${basic}` });
    expect((await send(double, 'POST', '/token-srv/token', init)).status).toBe(200);
    const wrong = await send(double, 'POST', '/token-srv/token', formInit({ ...form, client_secret: 'x' }));
    expect(wrong.status).toBe(401);
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
    send(double, 'POST', SEARCH, jsonInit(searchBody, headers));

  it('answers the recorded 401 body without a token, with one it did not issue, and after revokeTokens()', async () => {
    expectAccessDenied(await search({}));
    expectAccessDenied(await search({ authorization: 'Bearer made-up' }));
    const authorization = `Bearer ${await adminToken(double)}`;
    expect((await search({ authorization })).status).toBe(204);
    double.revokeTokens();
    expectAccessDenied(await search({ authorization }));
  });
});

describe('bad input and unknown calls', () => {
  it('answers broken JSON, a wrong shape, an empty body and an unknown content type with 400 + 10000', async () => {
    const broken = { headers: { 'content-type': 'application/json' }, body: '{"email":' };
    expectRefusal(await send(double, 'POST', '/useractions-srv/userexistence/x', broken), 400, 10000);
    expectRefusal(await admin(double, 'POST', '/useractions-srv/userexistence', { email: 42 }), 400, 10000);
    const empty = { headers: { 'content-type': 'application/json' } };
    expectRefusal(await send(double, 'POST', '/authz-srv/authrequest/authz/generate', empty), 400, 10000);
    const xml = { headers: { 'content-type': 'application/xml' }, body: '<a/>' };
    expectRefusal(await send(double, 'POST', '/authz-srv/authrequest/authz/generate', xml), 400, 10000);
  });

  // A path cidaas has in no source is no call, answered with a code a client cannot take for 10301.
  it.each([
    ['POST', '/users-srv/user/search'],
    ['GET', '/users-srv/nothing-here'],
  ])('answers %s %s with 404 and a code that is not 10301', async (method, path) => {
    expectRefusal(
      await admin(double, method, path, method === 'POST' ? { email: 'a@example.com' } : undefined),
      404,
      404,
      'RouteException',
    );
  });
});

describe('requests', () => {
  it('records method, path, query, lower-case headers and the parsed body of every request', async () => {
    // admin() asks for a token first: the log holds the token request, then the search.
    await admin(double, 'POST', `${SEARCH}?x=1`, searchBody, { 'X-Trace': 't' });
    const [token, search] = double.requests;
    expect(search).toMatchObject({
      method: 'POST',
      path: SEARCH,
      query: { x: '1' },
      headers: {
        'x-trace': 't',
        'content-type': 'application/json',
        authorization: expect.stringMatching(/^Bearer /),
      },
      body: searchBody,
    });
    expect(token?.body).toMatchObject({ grant_type: 'client_credentials', client_id: ADMIN.clientId });
  });

  // A refused token is checked before parsing, so such a request is logged without its body.
  it('records a request whose body could not be parsed, without a body', async () => {
    await send(double, 'POST', '/users-srv/register', {
      headers: { 'content-type': 'application/json' },
      body: 'nope',
    });
    expect(double.requests).toMatchObject([{ path: '/users-srv/register', body: undefined }]);
  });
});

describe('control', () => {
  it('gives out copies of its users and refuses a second user with the same e-mail', async () => {
    const { sub } = double.addUser({ email: 'Ann@Example.com', password: 'pw' });
    const user = double.user('ann@example.com');
    expect(user).toMatchObject({
      sub,
      email: 'ann@example.com',
      userStatus: 'VERIFIED',
      email_verified: true,
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
