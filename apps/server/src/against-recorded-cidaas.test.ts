import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  activationParams,
  insertCode,
  postPortalCall,
  register,
  STRONG_PASSWORD,
  uniqueEmail,
} from './test-support/account-fixtures';
import { type CidaasDouble, startCidaasDouble } from './test-support/cidaas-double/cidaas-double';
import { TEST_ADMIN_CLIENT } from './test-support/embedded-provider';
import { startTestServer } from './test-support/test-server';

// The server as production runs it, but in front of the recorded-cidaas double instead of the
// embedded provider: every journey of the spec over HTTP, with cidaas's answers as recorded
// (cidaas-facts.md) — integer codes, VERIFIED users with unverified e-mails, no lock of its own,
// webhooks that name only the sub and arrive after the redirect.

const CALLBACK = 'http://localhost:8082/callback';
let double: CidaasDouble;
let server: Awaited<ReturnType<typeof startTestServer>>;
let serverUrl: string;

beforeAll(async () => {
  double = await startCidaasDouble({
    clientCredentials: TEST_ADMIN_CLIENT,
    clients: [
      // As an operator configures it (docs/cidaas-setup.md): the hosted page URL carries the tenant.
      {
        clientId: 'property-portal-demo',
        hostedPageUrl: 'http://portal.test/login?subdomain=demo',
        // docs/cidaas-setup.md, "Hosted pages": verification_init → the resend page.
        verificationPageUrl: 'http://portal.test/resend-account-activation-email?subdomain=demo',
        redirectUris: [CALLBACK],
      },
      // One without: cidaas then sends a failed sign-in back without any tenant.
      {
        clientId: 'property-portal-it2',
        hostedPageUrl: 'http://portal.test/login',
        redirectUris: [CALLBACK],
      },
      {
        clientId: 'property-portal-lacleman',
        hostedPageUrl: 'http://portal.test/login?subdomain=lacleman',
        redirectUris: [CALLBACK],
      },
    ],
  });
  server = await startTestServer({}, { provider: { url: double.url }, smtp: true });
  serverUrl = await server.app.listen({ host: '127.0.0.1', port: 0 });
  double.setWebhook({
    url: `${serverUrl}/api/cidaas-webhook/events`,
    apiKeyHeader: 'X-API-Key',
    apiKey: server.config.webhook.apiKeys[0]!,
  });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await double?.close();
});
beforeEach(() => {
  double.variants.webhookDelayMs = 0;
});

const admin = (method: 'GET' | 'POST', url: string, body?: unknown) =>
  server.app.inject({
    method,
    url: `/api/admin${url}`,
    headers: {
      authorization: `Bearer ${server.config.adminApiTokens[0]}`,
      'content-type': 'application/json',
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

/** Lets the outbox send, and reads the activation link from the newest e-mail to this address. */
async function activationLinkFor(email: string, count = 1) {
  await server.app.backgroundJobs.outbox.runOnce();
  return activationParams((await server.mailSink!.waitFor(email, count)).text);
}

async function signInAtCidaas(email: string, password: string, clientId = 'property-portal-demo') {
  const requestId = await freshRequestId(clientId);
  const answer = await fetch(`${double.url}/login-srv/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: email, password, requestId, username_type: 'email' }),
  });
  return new URL(answer.headers.get('location')!);
}

/**
 * The failed-login counter as the page reads it: with `before`, as the page asks after a failure (the
 * server waits, up to 5 s, for the count to move from it); without, as it stands.
 */
async function counterAfter(email: string, before?: number, subdomain = 'demo') {
  const query = new URLSearchParams({ subdomain, email });
  if (before !== undefined) query.set('after', String(before));
  const response = await fetch(`${serverUrl}/user-login-failed-counter?${query}`);
  return ((await response.json()) as [{ counter: number }])[0].counter;
}

describe('registration against cidaas', () => {
  it('registers with a letter code, activates once, and says "already activated" after', async () => {
    const email = uniqueEmail();
    const response = await register(server.app, { email, code: await insertCode(server.db) });
    expect(response.statusCode).toBe(200);
    expect(double.user(email)).toMatchObject({ userStatus: 'VERIFIED', email_verified: false });
    // cidaas refuses register without a fresh request id of the tenant's client in the header.
    const registerCall = double.requests.findLast((request) => request.path === '/users-srv/register');
    expect(registerCall?.headers.requestid).toEqual(expect.any(String));

    const link = await activationLinkFor(email);
    const activate = () => postPortalCall(server.app, 'activate-user-account', link);
    expect((await activate()).json()).toMatchObject({ success: true, data: { isAlreadyActivated: false } });
    // Activation marks the e-mail verified and leaves the status alone (VERIFIED again is a 400).
    expect(double.user(email)).toMatchObject({ userStatus: 'VERIFIED', email_verified: true });
    expect((await activate()).json()).toMatchObject({ success: true, data: { isAlreadyActivated: true } });
  });

  it('registers an invited person with the invitation e-mail', async () => {
    const email = uniqueEmail('invitee');
    const created = await admin('POST', '/invitations', { tenant: 'lacleman', email, language: 'fr' });
    const { invitation } = created.json().data;
    const response = await register(server.app, {
      email,
      code: invitation.code,
      invite_id: invitation.id,
      clientid: 'property-portal-lacleman',
    });
    expect(response.statusCode).toBe(200);
    expect(double.user(email)).toMatchObject({ email_verified: false });
  });

  it('answers a field the tenant requires at cidaas (417 / 507) with the registration error, not a 5xx', async () => {
    double.variants.requiredRegistrationFields = ['given_name'];
    try {
      const code = await insertCode(server.db);
      const response = await register(server.app, { email: uniqueEmail(), code });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: { code: 'registration_error' } });
      // Nothing is used up: the code works once the operator fixes the setup.
      double.variants.requiredRegistrationFields = [];
      expect((await register(server.app, { email: uniqueEmail(), code })).statusCode).toBe(200);
    } finally {
      double.variants.requiredRegistrationFields = [];
    }
  });

  it('sends the activation e-mail again to an unverified account, and the new link works, also once cidaas stopped honouring the admin token', async () => {
    const email = uniqueEmail('resend');
    expect((await register(server.app, { email, code: await insertCode(server.db) })).statusCode).toBe(200);
    const first = await activationLinkFor(email);
    const resend = await postPortalCall(server.app, 'resend-account-activation-email', { email });
    expect(resend.json()).toMatchObject({ success: true });
    const second = await activationLinkFor(email, 2);
    expect(second.verificationid).not.toBe(first.verificationid);
    // A token refused before its expiry (revoked, a key rotated at cidaas) is replaced once: one new token.
    const tokenRequests = () =>
      double.requests.filter((request) => request.path === '/token-srv/token').length;
    const tokensBefore = tokenRequests();
    double.revokeTokens();
    const activation = await postPortalCall(server.app, 'activate-user-account', second);
    expect(activation.json()).toMatchObject({ data: { isAlreadyActivated: false } });
    expect(double.user(email)).toMatchObject({ email_verified: true });
    expect(tokenRequests()).toBe(tokensBefore + 1);
  });
});

describe("cidaas's verification pre-check at sign-in", () => {
  it('sends an unverified tenant to the resend page as the operator points verification_init at it, which works', async () => {
    const email = uniqueEmail('precheck');
    expect((await register(server.app, { email, code: await insertCode(server.db) })).statusCode).toBe(200);
    await activationLinkFor(email);
    const arrival = await signInAtCidaas(email, STRONG_PASSWORD);
    expect(arrival.pathname).toBe('/resend-account-activation-email');
    expect(arrival.searchParams.get('sub')).not.toBeNull();
    // The page drops cidaas's names of the account first, then shows the tenant's resend form.
    const dropped = await server.app.inject({
      url: `${arrival.pathname}${arrival.search}`,
      headers: { accept: 'text/html' },
    });
    expect(dropped.statusCode).toBe(302);
    expect(dropped.headers.location).not.toMatch(/sub=|track_id=/);
    const page = await server.app.inject({
      url: dropped.headers.location!,
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('name="email"');
    // What the form sends: a new link, which activates the account; then the password signs in.
    expect((await postPortalCall(server.app, 'resend-account-activation-email', { email })).statusCode).toBe(
      200,
    );
    const link = await activationLinkFor(email, 2);
    expect((await postPortalCall(server.app, 'activate-user-account', link)).json()).toMatchObject({
      data: { isAlreadyActivated: false },
    });
    expect((await signInAtCidaas(email, STRONG_PASSWORD)).href).toMatch(
      /^http:\/\/localhost:8082\/callback\?code=/,
    );
  });
});

describe('the lock after three failures, and the reset that lifts it', () => {
  it('counts late webhooks that name only the sub, locks at the third, and a reset unlocks', async () => {
    const email = uniqueEmail('locked');
    double.addUser({ email, password: STRONG_PASSWORD, email_verified: true });
    // cidaas does not hold the redirect for its webhook: the event comes after the page asks.
    double.variants.webhookDelayMs = 1500;
    for (const expected of [1, 2, 3]) {
      const back = await signInAtCidaas(email, 'Wrong-Passw0rd!');
      expect(back.searchParams.get('error')).toBe('invalid_username_password');
      expect(back.searchParams.get('subdomain')).toBe('demo');
      expect(await counterAfter(email, expected - 1)).toBe(expected);
    }
    // The page says "locked" only once cidaas has the lock, so the next attempt meets it. The
    // double does not lock by itself: the DECLINED is the server's.
    expect(double.user(email)).toMatchObject({ userStatus: 'DECLINED' });
    await double.webhooksSettled();
    double.variants.webhookDelayMs = 0;
    const refused = await signInAtCidaas(email, STRONG_PASSWORD);
    expect(refused.searchParams.get('error')).toBe('invalid_username_password');

    const requestId = await freshRequestId();
    double.expireRequestIds();
    // The page's request id expired meanwhile: the server asks for a fresh one and retries once.
    const initiate = await postPortalCall(server.app, 'password-reset-initiate', {
      requestId,
      email,
      processingType: 'LINK',
      resetMedium: 'email',
      subdomain: 'demo',
    });
    expect(initiate.json()).toMatchObject({ success: true });
    const link = double.lastReset(email);
    expect(link).toBeDefined();
    const setNew = await postPortalCall(server.app, 'password-reset-set-new', {
      resetRequestId: link!.rprq,
      exchangeId: link!.exchangeId,
      password: 'Winter-2025!',
      confirmpassword: 'Winter-2025!',
      requestId: link!.requestId,
    });
    expect(setNew.json()).toMatchObject({ success: true, data: { redirect_uri: expect.any(String) } });
    expect(double.user(email)).toMatchObject({ userStatus: 'VERIFIED' });
    expect(await counterAfter(email)).toBe(0);
    const signedIn = await signInAtCidaas(email, 'Winter-2025!');
    expect(signedIn.origin + signedIn.pathname).toBe(CALLBACK);
    expect(signedIn.searchParams.get('code')).toEqual(expect.any(String));
  });

  it("completes the unlock when the same link is sent again after the provider's answer was lost", async () => {
    const email = uniqueEmail('lost-answer');
    const { sub } = double.addUser({ email, password: STRONG_PASSWORD, email_verified: true });
    for (let failure = 0; failure < 3; failure += 1) await signInAtCidaas(email, 'Wrong-Passw0rd!');
    await double.webhooksSettled();
    expect(double.user(email)).toMatchObject({ userStatus: 'DECLINED' });
    await postPortalCall(server.app, 'password-reset-initiate', {
      requestId: await freshRequestId(),
      email,
      processingType: 'LINK',
      resetMedium: 'email',
    });
    const link = double.lastReset(email)!;
    const setNew = () =>
      postPortalCall(server.app, 'password-reset-set-new', {
        resetRequestId: link.rprq,
        exchangeId: link.exchangeId,
        password: 'Winter-2025!',
        confirmpassword: 'Winter-2025!',
        requestId: link.requestId,
      });
    // Newer cidaas answers the accept with a page: the password is set, the answer unreadable. The
    // reset's PASSWORD_RESET webhook, which unlocks too, comes only after the person's retry here:
    // were it first, the retry would find nothing left to do.
    const releaseWebhooks = double.holdWebhooks();
    try {
      double.variants.resetAcceptAnswer = 'html';
      try {
        expect((await setNew()).statusCode).toBe(503);
      } finally {
        double.variants.resetAcceptAnswer = 'json';
      }
      expect(double.user(email)).toMatchObject({ userStatus: 'DECLINED' });
      expect(await counterAfter(email, 0)).toBe(3);
      // The person sends the form again: the link is used now, and that completes the unlock.
      expect((await setNew()).json()).toMatchObject({ success: true });
      expect(double.user(email)).toMatchObject({ userStatus: 'VERIFIED', sub });
      expect(await counterAfter(email)).toBe(0);
    } finally {
      releaseWebhooks();
    }
    // The late webhook finds the account unlocked and leaves it so.
    await double.webhooksSettled();
    expect(double.user(email)).toMatchObject({ userStatus: 'VERIFIED', sub });
    expect(await counterAfter(email)).toBe(0);
  });

  it('finishes an unlock that failed after the new password was set when the same link is sent again', async () => {
    const email = uniqueEmail('unlock-failed');
    double.addUser({ email, password: STRONG_PASSWORD, email_verified: true });
    for (let failure = 0; failure < 3; failure += 1) await signInAtCidaas(email, 'Wrong-Passw0rd!');
    await double.webhooksSettled();
    expect(double.user(email)).toMatchObject({ userStatus: 'DECLINED' });
    await postPortalCall(server.app, 'password-reset-initiate', {
      requestId: await freshRequestId(),
      email,
      processingType: 'LINK',
      resetMedium: 'email',
    });
    const link = double.lastReset(email)!;
    const setNew = () =>
      postPortalCall(server.app, 'password-reset-set-new', {
        resetRequestId: link.rprq,
        exchangeId: link.exchangeId,
        password: 'Winter-2025!',
        confirmpassword: 'Winter-2025!',
        requestId: link.requestId,
      });
    // The provider takes the password, then its answers to unlocks are lost (the reset's own
    // PASSWORD_RESET webhook tries to unlock too, and must not succeed meanwhile).
    const unlock = vi
      .spyOn(server.provider, 'unlockAccount')
      .mockResolvedValue({ kind: 'unknown', reason: 'answer lost (test)' });
    try {
      expect((await setNew()).json()).toMatchObject({ error: { code: 'could_not_unlock_user' } });
      // Its webhook, every attempt of it, has met the lost answers too.
      await double.webhooksSettled();
      expect(double.user(email)).toMatchObject({ userStatus: 'DECLINED' });
    } finally {
      unlock.mockRestore();
    }
    // Sent again, the used link finishes the unlock instead of being called invalid.
    expect((await setNew()).json()).toMatchObject({ success: true });
    expect(double.user(email)).toMatchObject({ userStatus: 'VERIFIED' });
  });

  it('answers a mismatch (417 / 10009) and a used link (400 / 10002) with their own messages', async () => {
    const email = uniqueEmail('reset');
    double.addUser({ email, password: STRONG_PASSWORD, email_verified: true });
    const initiate = {
      requestId: await freshRequestId(),
      email,
      processingType: 'LINK',
      resetMedium: 'email',
    };
    await postPortalCall(server.app, 'password-reset-initiate', initiate);
    const link = double.lastReset(email)!;
    const setNew = (password: string, confirmpassword: string) =>
      postPortalCall(server.app, 'password-reset-set-new', {
        resetRequestId: link.rprq,
        exchangeId: link.exchangeId,
        password,
        confirmpassword,
        requestId: link.requestId,
      });
    const stale = await postPortalCall(server.app, 'password-reset-set-new', {
      resetRequestId: link.rprq,
      exchangeId: 'not-the-exchange-id',
      password: 'Winter-2025!',
      confirmpassword: 'Winter-2025!',
      requestId: link.requestId,
    });
    expect(stale.json()).toMatchObject({ error: { code: 'link_invalid' } });
    expect((await setNew('Winter-2025!', 'Winter-2025!')).json()).toMatchObject({ success: true });
    expect((await setNew('Winter-2025!', 'Winter-2025!')).json()).toMatchObject({
      error: { code: 'link_invalid' },
    });
  });
});

describe('a failed sign-in keeps the tenant', () => {
  it('renders the tenant of the request id when cidaas sends the visitor back without one', async () => {
    const requestId = await freshRequestId('property-portal-it2');
    // The first page the request id was served with named its tenant…
    const first = await server.app.inject({
      url: `/login?requestId=${requestId}&subdomain=it2`,
      headers: { accept: 'text/html' },
    });
    expect(first.body).toContain('IT2 Liegenschaften');
    // …cidaas's redirect after a wrong password names none (groupname, lang, view_type, sub, q).
    const back = await fetch(`${double.url}/login-srv/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        username: 'nobody@example.ch',
        password: 'x',
        requestId,
        username_type: 'email',
      }),
    });
    const location = new URL(back.headers.get('location')!);
    expect(location.searchParams.has('subdomain')).toBe(false);
    const page = await server.app.inject({
      url: location.pathname + location.search,
      headers: { accept: 'text/html' },
    });
    expect(page.body).toContain('IT2 Liegenschaften');
    expect(page.body).not.toContain('Demo Immobilien AG');
  });

  // Issue 26: every made-up request id wrote a row (a load run left 10,324).
  it('writes down only request ids the provider confirmed', async () => {
    const rowsOf = (requestId: string) =>
      server.db.selectFrom('sign_in_requests').select('tenant').where('request_id', '=', requestId).execute();
    const madeUp = `made-up-${Date.now()}`;
    for (const path of ['/login', '/register', '/password-reset-init', '/resend-account-activation-email']) {
      const page = await server.app.inject({
        url: `${path}?subdomain=it2&requestId=${madeUp}`,
        headers: { accept: 'text/html' },
      });
      expect(page.statusCode).toBe(200);
    }
    expect(await rowsOf(madeUp)).toEqual([]);
    const live = await freshRequestId('property-portal-it2');
    await server.app.inject({
      url: `/login?subdomain=it2&requestId=${live}`,
      headers: { accept: 'text/html' },
    });
    expect(await rowsOf(live)).toEqual([{ tenant: 'it2' }]);
  });
});

describe('pages arrive with their sign-in request', () => {
  const page = (url: string) => server.app.inject({ url, headers: { accept: 'text/html' } });
  const formRequestId = (html: string) => /name="requestId" value="([^"]*)"/.exec(html)?.[1];
  const stateRequestId = (html: string) => /"signInRequest":\{"requestId":"([^"]*)"/.exec(html)?.[1];
  const isLive = async (requestId: string) =>
    (await fetch(`${double.url}/public-srv/public/${requestId}`)).status === 200;

  it('renders /login with the request id of the address checked, its form ready to post', async () => {
    const live = await freshRequestId();
    const rendered = await page(`/login?subdomain=demo&requestId=${live}`);
    expect(formRequestId(rendered.body)).toBe(live);
    expect(rendered.body).toMatch(/<form[^>]+action="http:\/\/127\.0\.0\.1:\d+\/login-srv\/login"/);
    expect(stateRequestId(rendered.body)).toBe(live);
  });

  it("renders a page opened without a request id with a fresh one of its tenant's client", async () => {
    const rendered = await page('/login?subdomain=it2');
    const fresh = stateRequestId(rendered.body);
    expect(fresh).toBeDefined();
    expect(formRequestId(rendered.body)).toBe(fresh);
    expect(rendered.body).toMatch(/<form[^>]+action="http:\/\/127\.0\.0\.1:\d+\/login-srv\/login"/);
    expect(rendered.headers['cache-control']).toBe('private, no-cache');
    expect(await isLive(fresh!)).toBe(true);
    // cidaas sends a failed sign-in back without subdomain: the request id alone brings the brand back.
    expect(
      stateRequestId((await page(`/login?requestId=${fresh}&error=invalid_username_password`)).body),
    ).toBe(fresh);
    const generated = double.requests.filter((entry) => entry.path.endsWith('/authz/generate')).at(-1);
    expect(generated?.body).toMatchObject({ client_id: 'property-portal-it2' });
    // The next tenant's fresh request of the same client: its client's info is the one just read.
    const infoCalls = () =>
      double.requests.filter((entry) => entry.path.startsWith('/public-srv/public/')).length;
    const before = infoCalls();
    const next = stateRequestId((await page('/login?subdomain=it2')).body);
    expect(next).not.toBe(fresh);
    expect(infoCalls()).toBe(before);
  });

  it("sends the tenant to the customer's own /login when the provider gives no request, but a tenant flagged to stay", async () => {
    // r5's and alpenblick's clients are not the double's: it refuses to make requests for them.
    const r5 = await page('/register?subdomain=r5');
    expect(r5.statusCode).toBe(302);
    expect(r5.headers.location).toBe(
      `${server.registry.resolve({ subdomain: 'r5', fallbackEnvironment: 'dev' }).portalUrl}/login`,
    );
    const alpenblick = await page('/login?subdomain=alpenblick');
    expect(alpenblick.statusCode).toBe(200);
    expect(alpenblick.body).not.toContain('"signInRequest"');
    expect(alpenblick.body).toMatch(/<form[^>]+action="\/login\?subdomain=alpenblick"/);
  });

  it('answers a page that asks again with its request checked anew, or a fresh one', async () => {
    const live = await freshRequestId();
    const ask = async (requestId: string) =>
      (
        await server.app.inject({
          url: `/sign-in-request.json?path=%2Flogin&subdomain=demo&requestId=${requestId}`,
        })
      ).json() as { signInRequest?: { requestId: string } };
    expect(await ask(live)).toMatchObject({ signInRequest: { requestId: live } });
    double.expireRequestIds();
    const renewed = (await ask(live)).signInRequest?.requestId;
    expect(renewed).toBeDefined();
    expect(renewed).not.toBe(live);
    expect(await isLive(renewed!)).toBe(true);
  });

  it('renders a page with a fresh request id in place of one the provider sent back as expired', async () => {
    const live = await freshRequestId();
    expect(stateRequestId((await page(`/password-reset-init?subdomain=demo&requestId=${live}`)).body)).toBe(
      live,
    );
    double.expireRequestIds();
    // Sent back as expired: what was read of it before is not trusted.
    const back = await page(`/password-reset-init?subdomain=demo&requestId=${live}&error=session_expired`);
    const fresh = stateRequestId(back.body);
    expect(fresh).toBeDefined();
    expect(fresh).not.toBe(live);
    expect(await isLive(live)).toBe(false);
  });

  it('asks nothing for the pages reached from an e-mail', async () => {
    const before = double.requests.length;
    const rendered = await page('/password-set?subdomain=demo&rprq=r&exchangeid=e&requestId=x');
    expect(rendered.statusCode).toBe(200);
    expect(rendered.body).not.toContain('"signInRequest"');
    expect(double.requests.slice(before).map((entry) => entry.path)).toEqual([]);
  });

  it('answers a login form sent to the portal itself (no request could be had) with the page again, the e-mail kept', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/login?subdomain=demo&requestId=&username=anna%40example.ch',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'username=anna%40example.ch&password=secret&requestId=',
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/login?subdomain=demo&username=anna%40example.ch&error=not_sent');
    expect(response.body).not.toContain('secret');
  });
});

async function freshRequestId(clientId = 'property-portal-demo'): Promise<string> {
  const response = await fetch(`${double.url}/authz-srv/authrequest/authz/generate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_id: clientId,
      redirect_uri: CALLBACK,
      response_type: 'code',
      scope: 'openid',
    }),
  });
  const body = (await response.json()) as { data: { requestId: string } };
  return body.data.requestId;
}
