import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderClient } from '../../provider-client/provider-client';
import { startAtAFullHour } from '../../test-support/clock';
import { TEST_ADMIN_CLIENT } from '../../test-support/embedded-provider';
import { seedAccountProtection } from '../../test-support/protection-fixtures';
import { providerUserOf } from '../../test-support/provider-users';
import { type MailReader, sharedProvider } from '../../test-support/shared-provider';
import { startTestServer } from '../../test-support/test-server';

const PORTAL = 'http://portal.test';
const START_PASSWORD = 'Start-Pass1';
const NEW_PASSWORD = 'Neues-Pass2';
/** The run's provider is shared: this file's addresses are its own. */
const OWN = randomUUID().slice(0, 8);
const address = (label: string) => `${label}.${OWN}@example.ch`;

let mail: MailReader;
let admin: ProviderClient;
let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  // The shared provider's webhooks go nowhere: these tests look at what the reset calls themselves do.
  const provider = await sharedProvider();
  mail = provider.mail;
  admin = new ProviderClient({ baseUrl: provider.url, ...TEST_ADMIN_CLIENT });
  server = await startTestServer({ PORTAL_URL: PORTAL }, { provider: { url: provider.url } });
}, 90_000);
afterAll(() => server?.close());

let userNumber = 0;
/**
 * A user at the provider: as registered (its e-mail not verified yet), activated, or activated and
 * then locked by the server after three failures.
 */
async function createUser(
  state: 'UNVERIFIED' | 'VERIFIED' | 'LOCKED',
): Promise<{ email: string; sub: string }> {
  userNumber += 1;
  const email = address(`reset-user-${userNumber}`);
  const requestId = await admin.generateRequestId({
    clientId: 'property-portal-demo',
    redirectUri: 'http://localhost:8082/callback',
  });
  if (requestId.kind !== 'answer') throw new Error('no request id');
  // No language on record: the reset e-mail's language then comes from the asker's browser.
  const registered = await admin.registerUser({ requestId: requestId.data, email, password: START_PASSWORD });
  if (registered.kind !== 'answer') throw new Error(`register failed: ${JSON.stringify(registered)}`);
  const { sub } = registered.data;
  if (state !== 'UNVERIFIED') expect((await admin.verifyAccount(sub)).kind).toBe('answer');
  if (state === 'LOCKED') {
    expect((await admin.lockAccount(sub)).kind).toBe('answer');
    await seedAccountProtection(server.db, email, { failures: 3, lock: 'locked', sub });
  }
  return { email, sub };
}

async function statusOf(email: string) {
  const user = await providerUserOf(admin, email);
  return user && (user.emailVerified === false ? 'UNVERIFIED' : user.status);
}

let nextAddress = 1;
function post(path: string, payload: unknown, headers: Record<string, string> = {}, remoteAddress?: string) {
  return server.app.inject({
    method: 'POST',
    url: `/api/cidaas-webhook/${path}`,
    headers: { origin: PORTAL, 'content-type': 'application/json', ...headers },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    remoteAddress: remoteAddress ?? `10.1.0.${nextAddress++}`,
  });
}

function initiate(email: string, headers: Record<string, string> = {}, remoteAddress?: string) {
  const body = {
    requestId: 'request-of-the-login-page',
    email,
    processingType: 'LINK',
    resetMedium: 'email',
  };
  return post('password-reset-initiate', body, headers, remoteAddress);
}

interface ResetLink {
  rprq: string;
  exchangeid: string;
  requestId: string;
  email: string;
}

/** Starts a reset through the server and reads the link from the e-mail the provider sent. */
async function resetLinkFor(email: string): Promise<ResetLink> {
  const count = (await mail.to(email)).length + 1;
  expect((await initiate(email)).statusCode).toBe(200);
  const message = await mail.waitFor(email, count);
  const href = /https?:\/\/\S+\/password-set\?\S+/.exec(message.text)?.[0];
  if (!href) throw new Error('no reset link in the e-mail');
  const query = new URL(href).searchParams;
  return {
    rprq: query.get('rprq') ?? '',
    exchangeid: query.get('exchangeId') ?? query.get('exchangeid') ?? '',
    requestId: query.get('requestId') ?? '',
    email: query.get('email') ?? '',
  };
}

function setNew(
  link: ResetLink,
  password = NEW_PASSWORD,
  options: { confirm?: string; query?: string; extra?: Record<string, unknown> } = {},
) {
  return post(`password-reset-set-new${options.query ?? ''}`, {
    resetRequestId: link.rprq,
    exchangeId: link.exchangeid,
    password,
    confirmpassword: options.confirm ?? password,
    requestId: link.requestId,
    email: link.email,
    ...options.extra,
  });
}

async function recordedResets(email: string): Promise<number> {
  const rows = await server.db
    .selectFrom('password_reset_requests')
    .select('rprq_hash')
    .where('email', '=', email)
    .execute();
  return rows.length;
}

describe('POST /api/cidaas-webhook/password-reset-initiate', () => {
  it('answers a known and an unknown e-mail identically, and mails only the known one', async () => {
    const { email } = await createUser('VERIFIED');
    const nobody = address('nobody-here');
    const unknown = await initiate(nobody);
    const known = await initiate(email);
    for (const response of [known, unknown]) {
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe('{"success":true,"status":200,"data":{}}');
    }
    expect(known.headers['content-type']).toBe(unknown.headers['content-type']);
    // The unknown address was asked first. The provider writes a reset e-mail before it answers and
    // starts sending it before it answers too: once the known one's has arrived, one to it would have.
    await mail.waitFor(email);
    expect(await mail.to(nobody)).toEqual([]);
  });

  it('passes the browser language on for the e-mail', async () => {
    const { email } = await createUser('VERIFIED');
    await initiate(email, { 'accept-language': 'fr-CH,fr;q=0.9' });
    expect((await mail.waitFor(email)).subject).toMatch(/^Nouveau mot de passe/);
  });

  it('answers the same when the e-mail is over its limit, and forwards nothing more', async () => {
    startAtAFullHour();
    const email = address('limited-reset');
    for (let attempt = 0; attempt < 7; attempt += 1) {
      const response = await initiate(email);
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe('{"success":true,"status":200,"data":{}}');
    }
    // The provider answered (and a reset was recorded) for the first five only.
    expect(await recordedResets(email)).toBe(5);
  });

  it('answers the same when the address is over its limit, and forwards nothing more', async () => {
    startAtAFullHour();
    const ip = '10.2.2.2';
    for (let attempt = 0; attempt < 22; attempt += 1) {
      const response = await initiate(address(`probe-${attempt}`), {}, ip);
      expect(response.body).toBe('{"success":true,"status":200,"data":{}}');
    }
    expect(await recordedResets(address('probe-19'))).toBe(1);
    expect(await recordedResets(address('probe-20'))).toBe(0);
    expect(await recordedResets(address('probe-21'))).toBe(0);
  });

  it.each([
    ['a bad e-mail', { requestId: 'r', email: 'not-an-email', processingType: 'LINK', resetMedium: 'email' }],
    ['no request id', { email: 'a@example.ch', processingType: 'LINK', resetMedium: 'email' }],
    [
      'another processing type',
      { requestId: 'r', email: 'a@example.ch', processingType: 'CODE', resetMedium: 'email' },
    ],
  ])('answers %s with a 400 envelope', async (_case, body) => {
    const response = await post('password-reset-initiate', body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, status: 400 });
  });

  it('refuses another origin and a body that is not JSON, and forwards nothing', async () => {
    const email = address('guarded');
    const body = JSON.stringify({ requestId: 'r', email, processingType: 'LINK', resetMedium: 'email' });
    const foreign = await post('password-reset-initiate', body, { origin: 'https://evil.example' });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toMatchObject({
      success: false,
      status: 403,
      error: { code: 'forbidden_origin' },
    });
    for (const contentType of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const response = await post('password-reset-initiate', body, { 'content-type': contentType });
      expect(response.statusCode).toBe(415);
      expect(response.json()).toMatchObject({ success: false, error: { code: 'unsupported_media_type' } });
    }
    expect(await recordedResets(email)).toBe(0);
    // Without an Origin (not a browser's cross-site request) and as JSON it goes through.
    const withoutOrigin = await server.app.inject({
      method: 'POST',
      url: '/api/cidaas-webhook/password-reset-initiate',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      payload: body,
    });
    expect(withoutOrigin.statusCode).toBe(200);
    expect(await recordedResets(email)).toBe(1);
  });
});

describe('POST /api/cidaas-webhook/password-reset-set-new', () => {
  it('sets the new password once: the link is used up afterwards', async () => {
    const { email } = await createUser('VERIFIED');
    const link = await resetLinkFor(email);
    const response = await setNew(link);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      status: 200,
      data: { redirect_uri: `${PORTAL}/password-set-success` },
    });
    const again = await setNew(link, 'Drittes-Pass3');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ success: false, status: 400, error: { code: 'link_invalid' } });
  });

  it('answers password_mismatch without asking the provider, and the link still works', async () => {
    const { email } = await createUser('VERIFIED');
    const link = await resetLinkFor(email);
    const mismatch = await setNew(link, NEW_PASSWORD, { confirm: 'Anderes-Pass9' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json()).toMatchObject({ error: { code: 'password_mismatch' } });
    expect((await setNew(link)).statusCode).toBe(200);
  });

  it('answers password_too_weak from the provider, and the link still works', async () => {
    const { email } = await createUser('VERIFIED');
    const link = await resetLinkFor(email);
    const weak = await setNew(link, 'weakpass');
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ success: false, status: 400, error: { code: 'password_too_weak' } });
    expect((await setNew(link)).statusCode).toBe(200);
  });

  it('answers a made-up link with link_invalid', async () => {
    const response = await setNew({
      rprq: 'made-up',
      exchangeid: 'made-up',
      requestId: 'r',
      email: 'a@example.ch',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: { code: 'link_invalid' } });
  });

  it('unlocks a locked account and ends its failed-login count in every tenant', async () => {
    const { email } = await createUser('LOCKED');
    const response = await setNew(await resetLinkFor(email));
    expect(response.statusCode).toBe(200);
    expect(await statusOf(email)).toBe('VERIFIED');
    for (const subdomain of ['demo', 'r5']) {
      const counterAnswer = await server.app.inject({
        url: `/user-login-failed-counter?subdomain=${subdomain}&email=${encodeURIComponent(email)}`,
      });
      expect(counterAnswer.json()).toEqual([{ counter: 0 }]);
    }
  });

  it('activates an account that was registered but never activated (the link proved the e-mail)', async () => {
    const { email } = await createUser('UNVERIFIED');
    expect(await statusOf(email)).toBe('UNVERIFIED');
    expect((await setNew(await resetLinkFor(email))).statusCode).toBe(200);
    expect(await statusOf(email)).toBe('VERIFIED');
  });

  it('leaves a DECLINED it did not set itself (an operator blocked the account), and says so', async () => {
    const { email, sub } = await createUser('VERIFIED');
    expect((await admin.lockAccount(sub)).kind).toBe('answer');
    const response = await setNew(await resetLinkFor(email));
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({ error: { code: 'could_not_unlock_user' } });
    expect(await statusOf(email)).toBe('DECLINED');
  });

  it('unlocks the account the link belongs to, never the one the body names', async () => {
    const attacker = await createUser('VERIFIED');
    const victim = await createUser('LOCKED');
    const link = await resetLinkFor(attacker.email);
    const response = await setNew({ ...link, email: victim.email });
    expect(response.statusCode).toBe(200);
    expect(await statusOf(victim.email)).toBe('DECLINED');
    expect(await statusOf(attacker.email)).toBe('VERIFIED');
  });

  it('answers could_not_unlock_user when it cannot tell whose link it was; the password is changed', async () => {
    const { email } = await createUser('LOCKED');
    const link = await resetLinkFor(email);
    // As if the reset had been started elsewhere: the provider's answer does not name the account.
    await server.db.deleteFrom('password_reset_requests').where('email', '=', email).execute();
    const response = await setNew(link);
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({
      success: false,
      status: 502,
      error: { code: 'could_not_unlock_user' },
    });
    expect(await statusOf(email)).toBe('DECLINED');
    expect((await setNew(link)).json()).toMatchObject({ error: { code: 'link_invalid' } });
  });

  it('builds redirect_uri from the registry only', async () => {
    const cases: [string, string, Record<string, unknown>?][] = [
      ['?subdomain=r5', `${PORTAL}/password-set-success?subdomain=r5`],
      ['?subdomain=nobody', `${PORTAL}/password-set-success`],
      ['?subdomain=https%3A%2F%2Fevil.example', `${PORTAL}/password-set-success`],
      ['', `${PORTAL}/password-set-success`, { redirect_uri: 'https://evil.example/', subdomain: 'r5' }],
    ];
    for (const [query, expected, extra] of cases) {
      const { email } = await createUser('VERIFIED');
      const response = await setNew(await resetLinkFor(email), NEW_PASSWORD, { query, extra });
      expect(response.statusCode).toBe(200);
      expect(response.json().data.redirect_uri).toBe(expected);
    }
  });

  it('refuses another origin and a body that is not JSON', async () => {
    const { email } = await createUser('VERIFIED');
    const link = await resetLinkFor(email);
    const body = JSON.stringify({
      resetRequestId: link.rprq,
      exchangeId: link.exchangeid,
      password: NEW_PASSWORD,
      confirmpassword: NEW_PASSWORD,
      requestId: link.requestId,
    });
    expect((await post('password-reset-set-new', body, { origin: 'null' })).statusCode).toBe(403);
    expect((await post('password-reset-set-new', body, { 'content-type': 'text/plain' })).statusCode).toBe(
      415,
    );
    // Neither reached the provider: the link still works.
    expect((await post('password-reset-set-new', body)).statusCode).toBe(200);
  });

  it.each([
    ['no exchange id', { resetRequestId: 'a', password: 'x', confirmpassword: 'x', requestId: 'r' }],
    ['no passwords', { resetRequestId: 'a', exchangeId: 'b', requestId: 'r' }],
    ['an array', []],
  ])('answers %s with a 400 envelope', async (_case, body) => {
    const response = await post('password-reset-set-new', body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, status: 400 });
  });

  it('limits attempts per address', async () => {
    startAtAFullHour();
    const ip = '10.3.3.3';
    const made_up = {
      resetRequestId: 'a',
      exchangeId: 'b',
      password: 'x',
      confirmpassword: 'y',
      requestId: 'r',
    };
    const answers = [];
    for (let attempt = 0; attempt < 21; attempt += 1) {
      answers.push(await post('password-reset-set-new', made_up, {}, ip));
    }
    expect(answers.slice(0, 20).every((answer) => answer.statusCode === 400)).toBe(true);
    expect(answers[20]?.statusCode).toBe(429);
    expect(answers[20]?.json()).toMatchObject({ error: { code: 'too_many_requests' } });
  });
});

describe('an unreachable provider', () => {
  it('answers 503 provider_unreachable for initiate and set-new', async () => {
    const offline = await startTestServer({ PORTAL_URL: PORTAL, PROVIDER_URL: 'http://127.0.0.1:9' });
    try {
      const inject = (path: string, payload: object) =>
        offline.app.inject({
          method: 'POST',
          url: `/api/cidaas-webhook/${path}`,
          headers: { 'content-type': 'application/json' },
          payload,
        });
      const initiated = await inject('password-reset-initiate', {
        requestId: 'r',
        email: 'anna@example.ch',
        processingType: 'LINK',
        resetMedium: 'email',
      });
      expect(initiated.statusCode).toBe(503);
      expect(initiated.json()).toMatchObject({
        success: false,
        status: 503,
        error: { code: 'provider_unreachable' },
      });
      const setNewAnswer = await inject('password-reset-set-new', {
        resetRequestId: 'a',
        exchangeId: 'b',
        password: NEW_PASSWORD,
        confirmpassword: NEW_PASSWORD,
        requestId: 'r',
      });
      expect(setNewAnswer.statusCode).toBe(503);
      expect(setNewAnswer.json()).toMatchObject({ error: { code: 'provider_unreachable' } });
    } finally {
      await offline.close();
    }
  });
});
