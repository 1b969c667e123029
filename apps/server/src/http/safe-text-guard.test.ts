import { isUnsafeText } from '@concierge/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  codeRow,
  insertCode,
  outboxFor,
  postPortalCall,
  register,
  uniqueEmail,
} from '../test-support/account-fixtures';
import { providerUserOf } from '../test-support/provider-users';
import { startTestServer } from '../test-support/test-server';

// Issue "Hardening", point 1: unsafe text anywhere in a request is a 400 that changes nothing.

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer({}, { provider: true });
}, 120_000);
afterAll(() => server?.close());

let address = 0;
const nextIp = () => {
  address += 1;
  return `10.7.0.${address}`;
};

/** An e-mail made unsafe three ways: a NUL, a lone surrogate, an ESC sequence. */
function unsafeVariants(email: string): [string, string][] {
  const [local, domain] = email.split('@');
  return [
    ['a NUL', `${local}\u0000@${domain}`],
    ['a lone surrogate', `${local}\ud800@${domain}`],
    ['an ESC sequence', `${local}\u001b[31m@${domain}`],
  ];
}

async function mailOutboxSize(): Promise<number> {
  const row = await server.db
    .selectFrom('mail_outbox')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

describe('unsafe text in the account API', () => {
  it.each(unsafeVariants(uniqueEmail('nul')))(
    'register-user with %s in the e-mail: 400, the code stays unused, nobody is registered',
    async (_case, email) => {
      const code = await insertCode(server.db);
      const outbox = await mailOutboxSize();
      const response = await register(server.app, { email, code }, { remoteAddress: nextIp() });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        success: false,
        status: 400,
        error: { code: 'missing_request_property', error: expect.stringContaining('body.email') },
      });
      expect(await codeRow(server.db, code)).toMatchObject({ status: 'unused', claimed_email: null });
      expect(await mailOutboxSize()).toBe(outbox);
      // What PostgreSQL would have made of the lone surrogate, and the address without the bad part.
      for (const lookedUp of [
        email.replace(/[\ud800-\udfff]/g, '\ufffd'),
        email.replace(/[^\x20-\x7e]/g, ''),
      ]) {
        if (!isUnsafeText(lookedUp)) expect(await providerUserOf(server.provider, lookedUp)).toBeNull();
      }
    },
  );

  it('resend with unsafe variants of a registered e-mail: 400 and nothing queued', async () => {
    const email = uniqueEmail('resend');
    const registered = await register(
      server.app,
      { email, code: await insertCode(server.db) },
      { remoteAddress: nextIp() },
    );
    expect(registered.statusCode).toBe(200);
    const queued = (await outboxFor(server.db, email)).length;
    for (const [, variant] of unsafeVariants(email)) {
      const response = await postPortalCall(
        server.app,
        'resend-account-activation-email',
        { email: variant },
        { remoteAddress: nextIp() },
      );
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ success: false, error: { code: 'missing_request_property' } });
    }
    expect(await outboxFor(server.db, email)).toHaveLength(queued);
  });

  it.each([
    [
      'password-reset-initiate',
      { requestId: 'r', email: 'a\u0000b@x.ch', processingType: 'LINK', resetMedium: 'email' },
    ],
    [
      'password-reset-set-new',
      {
        resetRequestId: 'r\u0000',
        exchangeId: 'e',
        password: 'Neues-Pass2',
        confirmpassword: 'Neues-Pass2',
        requestId: 'q',
        email: 'a@x.ch',
      },
    ],
    ['activate-user-account', { email: 'a@x.ch', verificationid: '\ud800'.repeat(43) }],
  ])('%s with unsafe text: 400', async (name, body) => {
    const response = await postPortalCall(server.app, name, body, { remoteAddress: nextIp() });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, status: 400 });
  });

  it('refuses a NUL in the webhook intake, after the API key', async () => {
    const event = {
      id: 'e\u0000',
      eventtype: 'LOGIN_FAILURE',
      client_id: 'property-portal-demo',
      email: 'a@x.ch',
    };
    const send = (headers: Record<string, string>) =>
      server.app.inject({
        method: 'POST',
        url: '/api/cidaas-webhook/events',
        headers: { 'content-type': 'application/json', ...headers },
        payload: JSON.stringify(event),
      });
    expect((await send({})).statusCode).toBe(401);
    const keyed = await send({ [server.config.webhook.header]: server.config.webhook.apiKeys[0]! });
    expect(keyed.statusCode).toBe(400);
  });
});

describe('unsafe text in queries and paths', () => {
  it.each([
    '/user-login-failed-counter?subdomain=demo&email=a%00b%40x.ch',
    '/user-login-failed-counter?subdomain=demo&email=a%ED%A0%80b%40x.ch',
    '/user-login-failed-counter?subdomain=demo&email=%E0%A4%A',
    '/user-login-failed-counter?subdomain=demo&email=a%1B%5B31m%40x.ch',
    '/messages/%00',
    '/api/designs/%E0%A4%A',
    '/assets/%00.js',
    '/login?email=%C2%85',
  ])('GET %s: 400 invalid_request', async (url) => {
    const response = await server.app.inject({ method: 'GET', url, remoteAddress: nextIp() });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      success: false,
      status: 400,
      error: { code: 'invalid_request' },
    });
  });

  it('still answers ordinary text, umlauts and emoji included', async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: `/user-login-failed-counter?subdomain=demo&email=${encodeURIComponent('jürg.😀@exämple.ch')}`,
      remoteAddress: nextIp(),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([{ counter: 0 }]);
  });
});
