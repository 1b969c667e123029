import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CidaasDouble } from './cidaas-double';
import { expectRefusal, jsonInit, newRequestId, OTHER, PORTAL, send, startDouble } from './test-helpers';

// The hosted-page calls other than the login form (login.test.ts), in their recorded shapes
// (cidaas-facts.md "Hosted-page login", "Public info").

let double: CidaasDouble;
beforeEach(async () => {
  double = await startDouble();
});
afterEach(() => double.close());

const publicInfo = (requestId: string) => send(double, 'GET', `/public-srv/public/${requestId}`);
const authz = (client: typeof PORTAL) =>
  send(
    double,
    'GET',
    `/authz-srv/authz?${new URLSearchParams({ client_id: client.clientId, redirect_uri: client.redirectUris[0] ?? '', state: 's' })}`,
  );

describe('request ids', () => {
  it('generate answers the recorded fields with a fresh request id and no cookie', async () => {
    const body = { client_id: PORTAL.clientId, redirect_uri: PORTAL.redirectUris[0], response_type: 'code' };
    const answer = await send(double, 'POST', '/authz-srv/authrequest/authz/generate', jsonInit(body));
    expect(answer.json).toEqual({
      success: true,
      status: 200,
      data: { groupname: 'default', lang: '', view_type: 'login', requestId: expect.any(String) },
    });
    expect(answer.headers.get('set-cookie')).toBeNull();
    // A redirect_uri not registered for the client is refused.
    const other = { ...body, redirect_uri: OTHER.redirectUris[0] };
    expect(
      (await send(double, 'POST', '/authz-srv/authrequest/authz/generate', jsonInit(other))).status,
    ).toBe(400);
  });

  it("authz sends the browser to the client's hosted page: its own query kept, no subdomain added", async () => {
    const location = new URL((await authz(PORTAL)).headers.get('location') ?? '');
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
    const other = new URL((await authz(OTHER)).headers.get('location') ?? '');
    expect(other.searchParams.has('subdomain')).toBe(false);
  });
});

describe('public-srv', () => {
  it('answers the recorded public info and nothing else; unknown and expired request ids are 400 + 10001', async () => {
    const requestId = await newRequestId(double);
    expect(Object.keys((await publicInfo(requestId)).json.data).sort()).toEqual([
      'captcha_site_key',
      'client_name',
      'login_providers',
      'logo_uri',
      'passwordless_enabled',
      'policy_uri',
      'tos_uri',
    ]);
    expectRefusal(await publicInfo('not-issued'), 400, 10001);
    double.expireRequestIds();
    expectRefusal(await publicInfo(requestId), 400, 10001);
  });

  it('answers the basic tenant info in the recorded shape', async () => {
    expect((await send(double, 'GET', '/public-srv/tenantinfo/basic')).json.data).toEqual({
      tenant_name: expect.any(String),
      tenant_key: 'double',
      allowLoginWith: ['EMAIL'],
    });
  });

  it('answers the public existence check of a known user with exist:true and never a sub', async () => {
    double.addUser({ email: 'ann@example.com', password: 'pw' });
    double.variants.existenceCarriesSub = true;
    const answer = await send(
      double,
      'POST',
      '/useractions-srv/userexistence/some-request',
      jsonInit({ email: 'ANN@example.com', requestId: 'some-request' }),
    );
    expect(answer.json).toEqual({ success: true, status: 200, data: { exist: true } });
  });
});
