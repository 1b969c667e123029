import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  activationParams,
  insertCode,
  postPortalCall,
  register,
  uniqueEmail,
} from '../../test-support/account-fixtures';
import { providerUserOf } from '../../test-support/provider-users';
import { startTestServer } from '../../test-support/test-server';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer({}, { provider: true, smtp: true });
}, 120_000);
afterAll(() => server?.close());

/** Registers, lets the outbox send, and reads the activation link from the e-mail that arrived. */
async function registerAndReadLink(language = 'de') {
  const email = uniqueEmail();
  const code = await insertCode(server.db);
  const response = await register(server.app, { email, code }, { headers: { 'accept-language': language } });
  expect(response.statusCode).toBe(200);
  await server.app.backgroundJobs.outbox.runOnce();
  const mail = await server.mailSink!.waitFor(email);
  return { email, sub: response.json().data.sub as string, mail, params: activationParams(mail.text) };
}

const activate = (body: unknown, headers: Record<string, string> = {}) =>
  postPortalCall(server.app, 'activate-user-account', body, { headers });

describe('the activation e-mail', () => {
  it('arrives branded, in the registration language, with the link the portal page reads', async () => {
    const { email, mail, params } = await registerAndReadLink('en-GB,en;q=0.9');
    expect(mail.subject).toBe('Activate your account for the Demo Immobilien AG tenant portal');
    expect(params).toEqual({
      email,
      verificationid: expect.stringMatching(/^[\w-]{43}$/),
      subdomain: 'demo',
    });
    expect(mail.text).toContain('The link is valid for 72 hours.');
    const design = server.registry.design(server.registry.bySubdomain('demo')!);
    expect(mail.html).toContain(`background:${design.primaryShades[design.primaryShade]}`);
    expect(mail.html).toContain(`color:${design.primaryContrastText}`);
    expect(mail.html).toContain('src="http://portal.test/logo/brand.jpg?subdomain=demo"');
    expect(mail.html).toContain('<html lang="en"');
    // Only the hash of the verification id is stored; the sent e-mail's body is gone from the outbox.
    const rows = await server.db
      .selectFrom('activations')
      .select('verification_hash')
      .where('email', '=', email)
      .execute();
    expect(JSON.stringify(rows)).not.toContain(params.verificationid);
    const [outbox] = await server.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('recipient', '=', email)
      .execute();
    expect(outbox).toMatchObject({ attempts: 1, sent_at: expect.any(Date), html: '', text: '' });
  });
});

describe('POST /api/cidaas-webhook/activate-user-account', () => {
  it('marks the e-mail verified at the provider, and a second call says already activated', async () => {
    const { email, params } = await registerAndReadLink();
    expect(await providerUserOf(server.provider, email)).toMatchObject({ emailVerified: false });
    const first = await activate({ email: params.email, verificationid: params.verificationid });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ success: true, status: 200, data: { isAlreadyActivated: false } });
    expect(await providerUserOf(server.provider, email)).toMatchObject({
      status: 'VERIFIED',
      emailVerified: true,
    });
    const second = await activate({ email: email.toUpperCase(), verificationid: params.verificationid });
    expect(second.json()).toEqual({ success: true, status: 200, data: { isAlreadyActivated: true } });
  });

  it('activates once when the link is clicked twice at the same moment', async () => {
    const { params } = await registerAndReadLink();
    const answers = await Promise.all([activate(params), activate(params), activate(params)]);
    const flags = answers.map((answer) => answer.json().data.isAlreadyActivated).sort();
    expect(flags).toEqual([false, true, true]);
  });

  it('refuses an unknown verification id and a wrong e-mail, changing nothing', async () => {
    const { email, params } = await registerAndReadLink();
    for (const body of [
      { email, verificationid: 'x'.repeat(43) },
      { email: uniqueEmail(), verificationid: params.verificationid },
    ]) {
      const response = await activate(body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        success: false,
        error: { code: 'email_or_verificationid_invalid' },
      });
    }
    expect(await providerUserOf(server.provider, email)).toMatchObject({ emailVerified: false });
    expect((await activate(params)).json().data).toEqual({ isAlreadyActivated: false });
  });

  it('refuses an expired link', async () => {
    const { email, params } = await registerAndReadLink();
    await server.db
      .updateTable('activations')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('email', '=', email)
      .execute();
    const response = await activate(params);
    expect(response.json()).toMatchObject({
      status: 400,
      error: { code: 'email_or_verificationid_invalid' },
    });
    expect(await providerUserOf(server.provider, email)).toMatchObject({ emailVerified: false });
  });

  it('refuses missing fields, naming them', async () => {
    const response = await activate({ email: 'anna@example.ch' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: { code: 'missing_request_property', error: 'Invalid or missing: verificationid' },
    });
  });

  it('answers 502 when the provider refuses, and leaves the link usable', async () => {
    const { email, params } = await registerAndReadLink();
    await server.db
      .updateTable('activations')
      .set({ sub: 'no-such-sub' })
      .where('email', '=', email)
      .execute();
    const response = await activate(params);
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({ error: { code: 'default' } });
    const [row] = await server.db
      .selectFrom('activations')
      .select('used_at')
      .where('email', '=', email)
      .execute();
    expect(row?.used_at).toBeNull();
  });

  it('checks the Origin and takes JSON only', async () => {
    const foreign = await activate(
      { email: 'a@b.ch', verificationid: 'x' },
      { origin: 'https://evil.example' },
    );
    expect(foreign.statusCode).toBe(403);
    const form = await server.app.inject({
      method: 'POST',
      url: '/api/cidaas-webhook/activate-user-account',
      headers: { 'content-type': 'text/plain' },
      payload: '{}',
    });
    expect(form.statusCode).toBe(415);
  });
});
