import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  activationParams,
  DEMO_CLIENT_ID,
  IT2_CLIENT_ID,
  insertCode,
  outboxFor,
  postPortalCall,
  register,
  uniqueEmail,
} from '../../test-support/account-fixtures';
import { startAtAFullHour } from '../../test-support/clock';
import { userAtProvider } from '../../test-support/provider-users';
import { startTestServer } from '../../test-support/test-server';
import { RESEND_MIN_DURATION_MS } from './resend-activation';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer({}, { provider: true, smtp: true });
}, 120_000);
afterAll(() => server?.close());

let address = 0;
const nextIp = () => {
  address += 1;
  return `10.2.0.${address}`;
};
const SAME_ANSWER = { success: true, status: 200, data: {} };

const resend = (email: string, options: { ip?: string; language?: string; subdomain?: string } = {}) =>
  postPortalCall(
    server.app,
    'resend-account-activation-email',
    { email, ...(options.subdomain ? { subdomain: options.subdomain } : {}) },
    {
      remoteAddress: options.ip ?? nextIp(),
      headers: options.language ? { 'accept-language': options.language } : {},
    },
  );
const activate = (params: unknown) => postPortalCall(server.app, 'activate-user-account', params);

async function registered(
  tenant: { subdomain: string; clientid: string } = { subdomain: 'demo', clientid: DEMO_CLIENT_ID },
) {
  const email = uniqueEmail();
  const response = await register(
    server.app,
    { email, code: await insertCode(server.db, tenant.subdomain), clientid: tenant.clientid },
    { remoteAddress: nextIp() },
  );
  expect(response.statusCode).toBe(200);
  return { email, sub: response.json().data.sub as string };
}

async function sendAndRead(email: string, count: number) {
  await server.app.backgroundJobs.outbox.runOnce();
  return server.mailSink!.waitFor(email, count);
}

describe('POST /api/cidaas-webhook/resend-account-activation-email', () => {
  it('takes at least the same minimum time for an unknown, a pending and an activated account', async () => {
    const pending = await registered();
    const active = await registered();
    await activate(activationParams((await sendAndRead(active.email, 1)).text));
    for (const email of [uniqueEmail('unknown'), pending.email, active.email]) {
      const startedAt = performance.now();
      expect((await resend(email)).json()).toEqual(SAME_ANSWER);
      expect(performance.now() - startedAt).toBeGreaterThanOrEqual(RESEND_MIN_DURATION_MS - 1);
    }
  });

  it('sends a new link, in the asking browser language, and voids the old one', async () => {
    const { email } = await registered();
    const old = activationParams((await sendAndRead(email, 1)).text);
    const response = await resend(email, { language: 'it' });
    expect(response.json()).toEqual(SAME_ANSWER);
    const mail = await sendAndRead(email, 2);
    expect(mail.subject).toMatch(/^Attivate il vostro account/);
    const fresh = activationParams(mail.text);
    expect(fresh.verificationid).not.toBe(old.verificationid);

    expect((await activate(old)).json()).toMatchObject({
      status: 400,
      error: { code: 'email_or_verificationid_invalid' },
    });
    expect((await activate(fresh)).json()).toMatchObject({ data: { isAlreadyActivated: false } });
    const rows = await server.db
      .selectFrom('activations')
      .select(['voided_at', 'used_at'])
      .where('email', '=', email)
      .orderBy('created_at')
      .execute();
    expect(rows).toEqual([
      { voided_at: expect.any(Date), used_at: null },
      { voided_at: null, used_at: expect.any(Date) },
    ]);
  });

  it('answers the same for unknown, activated and pending registrations; only the activated one gets a note', async () => {
    const unknown = uniqueEmail();
    expect((await resend(unknown)).json()).toEqual(SAME_ANSWER);

    const { email: active } = await registered();
    const link = activationParams((await sendAndRead(active, 1)).text);
    await activate(link);
    expect((await resend(active)).json()).toEqual(SAME_ANSWER);

    const pending = uniqueEmail();
    const code = await insertCode(server.db);
    await server.db
      .updateTable('registration_codes')
      .set({ status: 'pending', claimed_email: pending, claimed_at: new Date() })
      .where('code', '=', code)
      .execute();
    expect((await resend(pending)).json()).toEqual(SAME_ANSWER);

    expect(await outboxFor(server.db, unknown)).toEqual([]);
    expect((await outboxFor(server.db, active)).map((mail) => mail.kind)).toEqual([
      'activation',
      'already-active',
    ]);
    expect(await outboxFor(server.db, pending)).toEqual([]);
  });

  it('sends a new link when every link is spent but the provider still has the e-mail unverified', async () => {
    const { email } = await registered();
    await sendAndRead(email, 1);
    // The link expired unused and was voided; cidaas still has the user with email_verified false.
    await server.db
      .updateTable('activations')
      .set({ voided_at: new Date() })
      .where('email', '=', email)
      .execute();
    expect((await resend(email)).json()).toEqual(SAME_ANSWER);
    expect(await outboxFor(server.db, email)).toHaveLength(2);
  });

  it("tells an activated account, instead of a new link, that it is active: in its tenant's brand and the asker's language, with a sign-in link and the reset link", async () => {
    const { email } = await registered({ subdomain: 'it2', clientid: IT2_CLIENT_ID });
    await activate(activationParams((await sendAndRead(email, 1)).text));
    // Asked on another tenant's page: the account's own tenant is the brand.
    expect((await resend(email, { language: 'fr', subdomain: 'r5' })).json()).toEqual(SAME_ANSWER);
    const note = await sendAndRead(email, 2);
    expect(note.subject).toBe(
      'Votre compte sur le portail des locataires IT2 Liegenschaften est déjà activé',
    );
    expect(note.text).toContain('votre compte sur le portail des locataires est déjà activé');
    expect(note.text).toContain('Se connecter\u00a0:\nhttp://localhost:8082/login\n');
    expect(note.text).toContain(
      `Mot de passe oublié ou compte bloqué\u00a0? Ce lien vous permet de définir un nouveau mot de passe\u00a0:\nhttp://portal.test/password-reset-init?email=${encodeURIComponent(email)}&subdomain=it2\n`,
    );
    // No new link: the used one is still the account's only one.
    expect(note.text).not.toContain('/verification-complete');
    const links = await server.db
      .selectFrom('activations')
      .select('used_at')
      .where('email', '=', email)
      .execute();
    expect(links).toEqual([{ used_at: expect.any(Date) }]);
  });

  it('tells an account Concierge never registered that it is active, in the brand of the page it was asked on, once its e-mail is verified', async () => {
    const email = uniqueEmail('before-concierge');
    const { sub } = await userAtProvider(server.provider, email, { verified: false });
    // Not verified yet: Concierge has no link to send for it, and says nothing either.
    expect((await resend(email, { subdomain: 'r5' })).json()).toEqual(SAME_ANSWER);
    expect(await outboxFor(server.db, email)).toEqual([]);

    expect((await server.provider.verifyAccount(sub)).kind).toBe('answer');
    expect((await resend(email, { subdomain: 'r5' })).json()).toEqual(SAME_ANSWER);
    const note = await sendAndRead(email, 1);
    expect(note.subject).toBe('Ihr Konto im Mieterportal R5 Immobilien ist bereits aktiviert');
    expect(note.text).toContain(`/password-reset-init?email=${encodeURIComponent(email)}&subdomain=r5`);
  });

  it('is rate-limited per e-mail and per address, with the same answer and nothing sent', async () => {
    startAtAFullHour();
    const { email } = await registered();
    for (let attempt = 0; attempt < 5; attempt += 1)
      expect((await resend(email)).json()).toEqual(SAME_ANSWER);
    expect(await outboxFor(server.db, email)).toHaveLength(6);
    const limited = await resend(email);
    expect(limited.statusCode).toBe(200);
    expect(limited.json()).toEqual(SAME_ANSWER);
    expect(await outboxFor(server.db, email)).toHaveLength(6);

    const ip = nextIp();
    const { email: other } = await registered();
    for (let attempt = 0; attempt < 30; attempt += 1) await resend(uniqueEmail(), { ip });
    expect((await resend(other, { ip })).json()).toEqual(SAME_ANSWER);
    expect(await outboxFor(server.db, other)).toHaveLength(1);
  });

  it('refuses a malformed address, a foreign Origin and a non-JSON body', async () => {
    const malformed = await resend('not-an-address');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({
      error: { code: 'missing_request_property', error: 'Invalid or missing: email' },
    });
    const foreign = await postPortalCall(
      server.app,
      'resend-account-activation-email',
      { email: 'a@b.ch' },
      {
        headers: { origin: 'http://portal.test.evil.example' },
      },
    );
    expect(foreign.statusCode).toBe(403);
    const form = await server.app.inject({
      method: 'POST',
      url: '/api/cidaas-webhook/resend-account-activation-email',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=a@b.ch',
    });
    expect(form.statusCode).toBe(415);
  });
});
