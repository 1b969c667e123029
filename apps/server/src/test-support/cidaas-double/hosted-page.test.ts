import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CidaasDouble } from './cidaas-double';
import {
  expectRefusal,
  expectUserNotFound,
  jsonInit,
  NOT_FOUND_VARIANTS,
  newRequestId,
  OTHER,
  PORTAL,
  send,
  startDouble,
} from './test-helpers';

// provider-protocol.md "Hosted-page sign-in", minus the login form (login.test.ts).

let double: CidaasDouble;
beforeEach(async () => {
  double = await startDouble();
});
afterEach(() => double.close());

const generate = (body: unknown) =>
  send(double, 'POST', '/authz-srv/authrequest/authz/generate', jsonInit(body));
const publicInfo = (requestId: string) => send(double, 'GET', `/public-srv/public/${requestId}`);

describe('authz/generate', () => {
  it('answers the recorded fields with a fresh request id, no cookie', async () => {
    const body = {
      client_id: PORTAL.clientId,
      redirect_uri: PORTAL.redirectUris[0],
      response_type: 'code',
      scope: 'openid',
      nonce: 'n',
    };
    const answer = await generate(body);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      success: true,
      status: 200,
      data: {
        groupname: 'default',
        lang: '',
        view_type: 'login',
        requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      },
    });
    expect(answer.headers.get('set-cookie')).toBeNull();
  });

  it('refuses an unknown client, a redirect_uri not registered for it, and a malformed body', async () => {
    expectRefusal(await generate({ client_id: 'nobody', redirect_uri: PORTAL.redirectUris[0] }), 400, 10000);
    expectRefusal(
      await generate({ client_id: PORTAL.clientId, redirect_uri: OTHER.redirectUris[0] }),
      400,
      10000,
    );
    expectRefusal(await generate({ client_id: PORTAL.clientId }), 400, 10000, 'ValidationException');
  });
});

describe('GET authz-srv/authz', () => {
  it("redirects to the client's hosted page, keeping its query and adding the recorded parameters", async () => {
    const query = new URLSearchParams({
      client_id: PORTAL.clientId,
      redirect_uri: PORTAL.redirectUris[0] ?? '',
      response_type: 'code',
      scope: 'openid',
      state: 's',
    });
    const answer = await send(double, 'GET', `/authz-srv/authz?${query}`);
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe('http://portal.test/login');
    const requestId = location.searchParams.get('requestId') ?? '';
    expect([...location.searchParams]).toEqual([
      ['subdomain', 'demo'],
      ['groupname', 'default'],
      ['lang', ''],
      ['view_type', 'login'],
      ['requestId', requestId],
    ]);
    expect((await publicInfo(requestId)).status).toBe(200);
  });

  it('adds no subdomain when the hosted page URL has none', async () => {
    const query = new URLSearchParams({
      client_id: OTHER.clientId,
      redirect_uri: OTHER.redirectUris[0] ?? '',
    });
    const location = new URL(
      (await send(double, 'GET', `/authz-srv/authz?${query}`)).headers.get('location') ?? '',
    );
    expect(location.searchParams.has('subdomain')).toBe(false);
    expect(location.pathname).toBe('/sign-in');
  });

  it('refuses an unknown client', async () => {
    expectRefusal(await send(double, 'GET', '/authz-srv/authz?client_id=nobody&redirect_uri=x'), 400, 10000);
  });
});

describe('public-srv', () => {
  it('answers the recorded public info and nothing else (no registration flags, no client_id)', async () => {
    const answer = await publicInfo(await newRequestId(double));
    expect(answer.json.data).toEqual({
      client_name: expect.any(String),
      logo_uri: expect.any(String),
      login_providers: [],
      policy_uri: expect.any(String),
      tos_uri: expect.any(String),
      passwordless_enabled: false,
      captcha_site_key: '',
    });
  });

  it('refuses unknown and expired request ids with 400 + 10001', async () => {
    expectRefusal(await publicInfo('not-issued'), 400, 10001);
    const requestId = await newRequestId(double);
    double.expireRequestIds();
    expectRefusal(await publicInfo(requestId), 400, 10001);
    expect((await publicInfo(await newRequestId(double))).status).toBe(200);
  });

  it('answers the basic tenant info', async () => {
    const answer = await send(double, 'GET', '/public-srv/tenantinfo/basic');
    expect(answer.json).toEqual({
      success: true,
      status: 200,
      data: { tenant_name: expect.any(String), tenant_key: 'double', allowLoginWith: ['EMAIL'] },
    });
  });
});

describe('public user existence', () => {
  const exists = (email: string) =>
    send(
      double,
      'POST',
      '/useractions-srv/userexistence/some-request',
      jsonInit({ email, requestId: 'some-request' }),
    );

  it('answers a known user with exist:true and never a sub, whatever the admin variant', async () => {
    double.addUser({ email: 'ann@example.com', password: 'pw' });
    double.variants.existenceCarriesSub = true;
    const answer = await exists('ANN@example.com');
    expect(answer.json).toEqual({ success: true, status: 200, data: { exist: true } });
  });

  it.each(NOT_FOUND_VARIANTS)('answers an unknown user per variant %s', async (variant) => {
    double.variants.userNotFound = variant;
    expectUserNotFound(await exists('nobody@example.com'), variant);
  });
});
