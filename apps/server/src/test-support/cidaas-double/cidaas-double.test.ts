import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CidaasDouble, type CidaasDoubleVariants, startCidaasDouble } from './cidaas-double';

// The double is a witness: these cases pin its default answers and each variant to what cidaas
// documents or was recorded answering (/work/shared/design/cidaas-facts.md; types.ts and the route
// files name each source), never to what the server's client happens to read. What the client makes
// of the answers in every variant is proven by provider-client/conformance.test.ts, the server in
// front of the double by against-recorded-cidaas.test.ts; the double's plumbing is not tested.

const CALLBACK = 'http://portal.test/callback';
const HOSTED = 'http://portal.test/login';
const CLIENT = { clientId: 'portal', hostedPageUrl: `${HOSTED}?subdomain=demo`, redirectUris: [CALLBACK] };
const ADMIN = { clientId: 'admin', clientSecret: 'secret' };
const EMAIL = 'ann@example.com';
const NOBODY = 'nobody@example.com';
const PAGE = { subdomain: 'demo', groupname: 'default', lang: '', view_type: 'login' };
const ANY = expect.any(String);
const DENIED = [401, { error: 'Access denied for this resource', refnumber: ANY }];

let double: CidaasDouble;
let token: string;
let sub: string;
let closeReceiver: (() => void) | undefined;
beforeEach(async () => {
  double = await startCidaasDouble({ clientCredentials: ADMIN, clients: [CLIENT] });
  sub = double.addUser({ email: EMAIL, password: 'right' }).sub;
  const form = new URLSearchParams('grant_type=client_credentials&client_id=admin&client_secret=secret');
  token = (await call('POST', '/token-srv/token', form)).json.access_token;
});
afterEach(async () => {
  await double.close();
  closeReceiver?.();
  closeReceiver = undefined;
});

/** Over HTTP as the server calls: URLSearchParams as a form, a string as raw JSON text, else as JSON. */
async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const form = body instanceof URLSearchParams;
  const type = form ? 'application/x-www-form-urlencoded' : 'application/json';
  const text = form || typeof body === 'string' ? String(body) : JSON.stringify(body);
  const init =
    body === undefined ? { headers } : { headers: { 'content-type': type, ...headers }, body: text };
  const response = await fetch(`${double.url}${path}`, { method, redirect: 'manual', ...init });
  const raw = await response.text();
  return { status: response.status, headers: response.headers, json: raw ? JSON.parse(raw) : undefined };
}
type Answer = Awaited<ReturnType<typeof call>>;
const admin = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  call(method, path, body, { authorization: `Bearer ${token}`, ...headers });
const GENERATE = { client_id: CLIENT.clientId, redirect_uri: CALLBACK, response_type: 'code' };
const newRequestId = async (): Promise<string> =>
  (await call('POST', '/authz-srv/authrequest/authz/generate', GENERATE)).json.data.requestId;

/** Posts the hosted page's login form: where the double sends the browser. */
async function login(username: string, password: string, requestId?: string): Promise<URL> {
  requestId ??= await newRequestId();
  const form = new URLSearchParams({ username, password, requestId, username_type: 'email' });
  const answer = await call('POST', '/login-srv/login', form);
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get('location') ?? '');
}
const pageOf = (url: URL) => `${url.origin}${url.pathname}`;
const params = (url: URL) => Object.fromEntries(url.searchParams);

/** The recorded error envelope: an integer code, an exception's name as type, the status inside too. */
function expectRefusal(answer: Answer, status: number, code: number, type?: string): void {
  const named = type ?? expect.stringMatching(/Exception$/);
  const error = { code, moreInfo: '', status, type: named, referenceNumber: ANY, error: ANY };
  expect([answer.status, answer.json]).toEqual([status, { success: false, status, error }]);
}

describe('hosted-page sign-in (cidaas-facts.md "Hosted-page login", "Public info")', () => {
  it('answers generate (no cookie), public info, tenant info and the public existence check as recorded', async () => {
    const generated = await call('POST', '/authz-srv/authrequest/authz/generate', GENERATE);
    const data = { groupname: 'default', lang: '', view_type: 'login', requestId: ANY };
    expect(generated.json).toEqual({ success: true, status: 200, data });
    expect(generated.headers.get('set-cookie')).toBeNull();
    const info = (await call('GET', `/public-srv/public/${generated.json.data.requestId}`)).json.data;
    expect(Object.keys(info).sort().join(' ')).toBe(
      'captcha_site_key client_name login_providers logo_uri passwordless_enabled policy_uri tos_uri',
    );
    const tenant = { tenant_name: ANY, tenant_key: 'double', allowLoginWith: ['EMAIL'] };
    expect((await call('GET', '/public-srv/tenantinfo/basic')).json.data).toEqual(tenant);
    // `{exist:true}` and nothing else, even where the admin check carries the sub.
    double.variants.existenceCarriesSub = true;
    const exists = await call('POST', '/useractions-srv/userexistence/r', { email: 'ANN@example.com' });
    expect(exists.json).toEqual({ success: true, status: 200, data: { exist: true } });
  });

  it("sends authz to the client's hosted page, its query kept and no subdomain added; a sign-in on with code and state", async () => {
    const query = new URLSearchParams({ client_id: CLIENT.clientId, redirect_uri: CALLBACK, state: 'st' });
    const hosted = new URL((await call('GET', `/authz-srv/authz?${query}`)).headers.get('location') ?? '');
    const requestId = hosted.searchParams.get('requestId') ?? '';
    expect(pageOf(hosted)).toBe(HOSTED);
    expect([...hosted.searchParams]).toEqual([...Object.entries(PAGE), ['requestId', requestId]]);
    const target = await login(EMAIL, 'right', requestId);
    expect([pageOf(target), params(target)]).toEqual([CALLBACK, { code: ANY, state: 'st' }]);
  });

  it('sends a wrong password back with sub and a masked q for a known user, error_description for an unknown one', async () => {
    const requestId = await newRequestId();
    const known = await login(EMAIL, 'wrong', requestId);
    expect(pageOf(known)).toBe(HOSTED);
    const failure = { ...PAGE, error: 'invalid_username_password', username_type: 'email', requestId };
    expect(params(known)).toEqual({ ...failure, username: EMAIL, sub, q: expect.stringContaining('*') });
    expect(known.searchParams.get('q')).not.toBe(sub);
    const unknown = await login(NOBODY, 'x', requestId);
    const described = { username: NOBODY, error_description: 'Given username or password is invalid' };
    expect(params(unknown)).toEqual({ ...failure, ...described });
  });
});

describe('admin API (cidaas-facts.md "Users", "Codes seen", "Tokens")', () => {
  it('answers no token, a foreign one, and the self-service update for the admin client with the recorded 401 body', async () => {
    const search = { fieldsFilter: [{ field: 'email', value: [EMAIL] }] };
    const answers = [
      await call('POST', '/user-srv/graph/users', search),
      await call('POST', '/user-srv/graph/users', search, { authorization: 'Bearer made-up' }),
      await admin('PUT', `/users-srv/user/profile/${sub}`, { email_verified: true }),
    ];
    expect(answers.map((answer) => [answer.status, answer.json])).toEqual([DENIED, DENIED, DENIED]);
  });

  const expired = async () => {
    const requestId = await newRequestId();
    double.expireRequestIds();
    return call('GET', `/public-srv/public/${requestId}`);
  };
  const register = async (variants: Partial<CidaasDoubleVariants> = {}) => {
    Object.assign(double.variants, variants);
    const body = { email: 'new@example.com', password: 'Secret-123', provider: 'self' };
    return admin('POST', '/users-srv/register', body, { requestId: await newRequestId() });
  };
  const exists = async (variants: Partial<CidaasDoubleVariants> = {}) => {
    Object.assign(double.variants, variants);
    return admin('POST', '/useractions-srv/userexistence', { email: NOBODY });
  };
  const otherIdentity = { userData: { provider: 'self', identityId: 'other', email_verified: true } };
  it.each<[string, () => Promise<Answer>, number, number, string?]>([
    ['an expired request id', expired, 400, 10001],
    ['a required field', () => register({ requiredRegistrationFields: ['given_name'] }), 417, 507],
    ["an unknown user in '417'", () => exists({ userNotFound: '417' }), 417, 10301, 'UsersException'],
    ["an unknown user in '404'", () => exists({ userNotFound: '404' }), 404, 10301, 'UsersException'],
    ['broken JSON', () => call('POST', '/useractions-srv/userexistence/r', '{"email":'), 400, 10000],
    ['a wrong shape', () => admin('POST', '/useractions-srv/userexistence', { email: 42 }), 400, 10000],
    ['another identity', () => admin('PUT', `/user-srv/users/${sub}`, otherIdentity), 400, 10014],
    ['an unblock without sub', () => admin('POST', '/fraud-detection-srv/unblock', {}), 400, 10015],
    ['a path in no source', () => admin('POST', '/users-srv/user/search', {}), 404, 404, 'RouteException'],
  ])('refuses %s in the recorded envelope', async (_name, ask, status, code, type) => {
    expectRefusal(await ask(), status, code, type);
  });

  it('answers an unknown user with a bare 204 by default (documented)', async () => {
    expect(await exists()).toMatchObject({ status: 204, json: undefined });
  });

  it('registers VERIFIED with an unverified e-mail, in the recorded fields; a taken e-mail is 409 + 10011', async () => {
    const data = { sub: ANY, userStatus: 'VERIFIED', email_verified: false, q: ANY };
    const next = { suggested_action: '', suggested_redirect_uri: '', next_token: '' };
    expect((await register()).json.data).toEqual({ ...data, ...next });
    expectRefusal(await register(), 409, 10011);
  });

  it("answers user by sub with the documented nested profile by default, a flat one in 'flat'", async () => {
    const person = { email: 'cy@example.com', email_verified: false, given_name: 'Cy' };
    const { sub: cy } = double.addUser({ ...person, password: 'pw' });
    const { identityId, accountId } = double.user(person.email)!;
    const profile = async () => (await admin('GET', `/users-srv/internal/userinfo/profile/${cy}`)).json.data;
    const own = { className: ANY, sub: cy, createdTime: ANY, updatedTime: ANY };
    expect(await profile()).toEqual({
      userAccount: { _id: accountId, ...own, userStatus: 'VERIFIED' },
      identity: { _id: identityId, ...own, provider: 'self', ...person },
      customFields: {},
      roles: [],
      groups: [],
    });
    double.variants.profileShape = 'flat';
    expect(await profile()).toEqual({ sub: cy, userStatus: 'VERIFIED', ...person });
  });

  it('allows the documented status transitions only; BLOCKED, COMBINED and DELETED are never set, BLOCKED never left', async () => {
    const allowed: string[] = [];
    for (const from of ['VERIFIED', 'PENDING', 'DECLINED', 'BLOCKED'] as const) {
      for (const to of ['VERIFIED', 'PENDING', 'DECLINED', 'BLOCKED', 'COMBINED', 'DELETED']) {
        const user = double.addUser({ email: `${from}-${to}@example.com`, password: 'pw', userStatus: from });
        const answer = await admin('PATCH', `/user-srv/users/${user.sub}/status`, { status: to });
        if (answer.status === 200) allowed.push(`${from}>${to}`);
        else expectRefusal(answer, 400, 10013);
        expect(double.user(`${from}-${to}@example.com`)?.userStatus).toBe(answer.status === 200 ? to : from);
      }
    }
    // docs.cidaas.com openapi/user/patch-user-status, written out.
    expect(allowed.join(' ')).toBe(
      'VERIFIED>PENDING VERIFIED>DECLINED PENDING>VERIFIED PENDING>DECLINED DECLINED>VERIFIED DECLINED>PENDING',
    );
  });
});

describe('brute-force block (variants blockAfterFailures, bruteForceBlock, fraudDetection)', () => {
  const THREE = { blockAfterFailures: 3 };
  // Each row: the user's [userStatus, isFraudBlocked, whether the right password then signs in].
  it.each<[string, Partial<CidaasDoubleVariants>, [string, boolean, boolean]]>([
    ['nobody by default', {}, ['VERIFIED', false, true]],
    ["BLOCKED in 'status'", THREE, ['BLOCKED', true, false]],
    ["only listed in 'list'", { ...THREE, bruteForceBlock: 'list' }, ['VERIFIED', true, false]],
    ['nobody without fraud detection', { ...THREE, fraudDetection: false }, ['VERIFIED', false, true]],
  ])('blocks after three wrong passwords %s', async (_name, variants, expected) => {
    Object.assign(double.variants, variants);
    for (let failure = 0; failure < 3; failure += 1) await login(EMAIL, 'wrong');
    const { userStatus, isFraudBlocked } = double.user(EMAIL)!;
    const signsIn = pageOf(await login(EMAIL, 'right')) === CALLBACK;
    expect([userStatus, isFraudBlocked, signsIn]).toEqual(expected);
    // Documented: the status call cannot leave BLOCKED (the client lifts it through the unblock).
    const decline = await admin('PATCH', `/user-srv/users/${sub}/status`, { status: 'DECLINED' });
    expect(decline.status).toBe(userStatus === 'BLOCKED' ? 400 : 200);
  });
});

describe('webhooks (cidaas-facts.md "Webhooks")', () => {
  type Delivery = { url?: string; key?: string | string[]; body: Record<string, unknown>; at: number };
  /** A webhook endpoint the double delivers to; answers the given statuses in turn, then 200. */
  async function receive(statuses: number[] = []): Promise<Delivery[]> {
    const deliveries: Delivery[] = [];
    const server = createServer(async (request, response) => {
      let raw = '';
      for await (const chunk of request) raw += chunk;
      const key = request.headers['x-api-key'];
      deliveries.push({ url: request.url, key, body: JSON.parse(raw), at: Date.now() });
      response.writeHead(statuses.shift() ?? 200).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closeReceiver = () => server.close().closeAllConnections();
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
    double.setWebhook({ url, apiKeyHeader: 'X-API-Key', apiKey: 'hook-key' });
    return deliveries;
  }

  it('sends the documented body by default: no id, timestamp, sub or e-mail; the key in its header', async () => {
    const deliveries = await receive();
    await login(EMAIL, 'right');
    await double.webhooksSettled();
    const body = {
      eventtype: 'LOGIN_WITH_CIDAAS',
      createTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      client_id: CLIENT.clientId,
      tenantKey: 'double',
      actorId: sub,
      objectId: sub,
      objectType: 'USER',
      metaData: {},
    };
    expect(deliveries).toEqual([{ url: '/events', key: 'hook-key', body, at: expect.any(Number) }]);
  });

  // Documented: 3 more attempts after 1, 5 and 10 minutes (here scaled down), for any answer but 200.
  it.each([
    [[500], 2],
    [[500, 201, 401, 503], 4],
  ])('answered %j, delivers %i times, the same body after each pause', async (statuses, attempts) => {
    double.variants.webhookRetryPausesMs = [30, 60, 90];
    const deliveries = await receive([...statuses]);
    await login(EMAIL, 'wrong');
    await double.webhooksSettled();
    expect(deliveries).toHaveLength(attempts);
    expect(new Set(deliveries.map((delivery) => JSON.stringify(delivery.body))).size).toBe(1);
    for (const [index, delivery] of deliveries.slice(1).entries()) {
      expect(delivery.at - deliveries[index]!.at).toBeGreaterThanOrEqual([30, 60, 90][index]! - 5);
    }
  });
});
