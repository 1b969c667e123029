import { createHash } from 'node:crypto';
import { resetPasswordAcceptedSchema, resetPasswordInitiatedSchema } from '@concierge/contracts';
import { type MailSink, type SunkMail, startMailSink } from '@concierge/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminToken,
  createPkce,
  PORTAL_URL,
  type ProviderHarness,
  postLogin,
  RP_URL,
  startAuthorization,
  startProvider,
} from '../test-support/provider-harness';
import { TestBrowser } from '../test-support/test-browser';
import { waitUntil } from '../test-support/wait-until';
import { startWebhookReceiver, type WebhookReceiver } from '../test-support/webhook-receiver';
import { createUser, findUserByEmail } from '../users/users';
import { initiatePasswordReset } from './initiate-reset';

const OLD_PASSWORD = 'Old-Passw0rd!';
const NEW_PASSWORD = 'New-Passw0rd!';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const BRANDED_CLIENT = {
  client_id: 'acme-portal',
  client_name: 'Acme Wohnen AG',
  token_endpoint_auth_method: 'none',
  grant_types: ['authorization_code'],
  redirect_uris: [`${RP_URL}/acme-callback`],
  subdomain: 'acme',
  brand_color: '#f59f00',
};

interface InitiateAnswer {
  success: boolean;
  status: number;
  data: { reset_initiated: boolean; rprq: string };
}

function resetLinkOf(mail: SunkMail): URL {
  const link = /https?:\/\/\S+\/password-set\?\S+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no reset link in: ${mail.text}`);
  return new URL(link);
}

describe('password reset by e-mailed link', () => {
  let smtp: MailSink;
  let receiver: WebhookReceiver;
  let harness: ProviderHarness;
  let token: string;
  let requestId: string;
  beforeAll(async () => {
    smtp = await startMailSink();
    receiver = await startWebhookReceiver();
    harness = await startProvider([BRANDED_CLIENT], {
      env: { SMTP_URL: smtp.url, PROVIDER_WEBHOOK_URL: receiver.url },
    });
    token = await adminToken(harness);
    ({ requestId } = await startAuthorization(harness, new TestBrowser(), createPkce()));
  });
  afterAll(async () => {
    await harness.close();
    await smtp.close();
    await receiver.close();
  });

  async function newUser(email: string, extra: { locale?: string; status?: 'VERIFIED' | 'DECLINED' } = {}) {
    const created = await createUser(harness.database.db, {
      email,
      password: OLD_PASSWORD,
      status: extra.status ?? 'VERIFIED',
      locale: extra.locale ?? null,
    });
    if (!created.isCreated) throw new Error('user not created');
    return created.sub;
  }

  function call(
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
    bearer: string | null = token,
  ) {
    return fetch(`${harness.baseUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        ...headers,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  }

  async function initiate(
    email: string,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    const response = await call(
      '/users-srv/resetpassword/initiate',
      { requestId, email, processingType: 'LINK', resetMedium: 'email', ...extra },
      headers,
    );
    expect(response.status).toBe(200);
    return (await response.json()) as InitiateAnswer;
  }

  /** Reset requests and e-mails in the outbox: both are written before an initiate answers. */
  async function countRows() {
    const { db } = harness.database;
    return {
      resets: (await db.selectFrom('password_reset_requests').select('rprq').execute()).length,
      mails: (await db.selectFrom('mail_outbox').select('id').execute()).length,
    };
  }

  function accept(body: Record<string, unknown>) {
    return call('/users-srv/resetpassword/accept', body);
  }

  /** Initiates and returns the ids the e-mailed link carries. */
  async function resetLink(email: string, count = 1) {
    await initiate(email);
    const link = resetLinkOf(await smtp.waitFor(email, count));
    return {
      rprq: link.searchParams.get('rprq') ?? '',
      exchangeId: link.searchParams.get('exchangeId') ?? '',
    };
  }

  async function signsInWith(email: string, password: string): Promise<boolean> {
    const browser = new TestBrowser();
    const started = await startAuthorization(harness, browser, createPkce());
    const response = await postLogin(harness, browser, {
      username: email,
      password,
      requestId: started.requestId,
    });
    return (response.headers.get('location') ?? '').startsWith(harness.baseUrl);
  }

  describe('initiate', () => {
    it('e-mails a known user a link to the portal, in German by default', async () => {
      const email = 'known@example.com';
      await newUser(email);
      const answer = await initiate('Known@Example.com');
      expect(answer).toEqual({
        success: true,
        status: 200,
        data: { reset_initiated: true, rprq: expect.stringMatching(UUID) },
      });

      const mail = await smtp.waitFor(email);
      expect(mail.from).toBe('no-reply@concierge.test');
      expect(mail.subject).toBe('Neues Passwort für das Mieterportal Demo Immobilien AG');
      expect(mail.text).toContain('Der Link ist 1 Stunde gültig.');
      const link = resetLinkOf(mail);
      expect(`${link.origin}${link.pathname}`).toBe(`${PORTAL_URL}/password-set`);
      expect([...link.searchParams.keys()]).toEqual([
        'exchangeId',
        'rprq',
        'requestId',
        'subdomain',
        'email',
      ]);
      expect(Object.fromEntries(link.searchParams)).toMatchObject({
        rprq: answer.data.rprq,
        requestId,
        subdomain: 'demo',
        email,
      });
      expect(mail.html).toContain(`href="${link.href.replace(/&/g, '&#38;')}"`);
      expect(mail.html).toContain('background:#1864ab;color:#ffffff');
      expect(mail.html).toContain('<html lang="de">');

      // Stored hashed, for an hour (the default lifetime), with the request's tenant.
      const stored = await harness.database.db
        .selectFrom('password_reset_requests')
        .selectAll()
        .where('rprq', '=', answer.data.rprq)
        .executeTakeFirstOrThrow();
      const exchangeId = link.searchParams.get('exchangeId') ?? '';
      expect(stored.exchange_id_hash).toBe(createHash('sha256').update(exchangeId).digest('hex'));
      expect(stored.exchange_id_hash).not.toContain(exchangeId);
      expect(stored).toMatchObject({ request_id: requestId, subdomain: 'demo', used_at: null });
      const minutes = (stored.expires_at.getTime() - Date.now()) / 60_000;
      expect(minutes).toBeGreaterThan(59);
      expect(minutes).toBeLessThanOrEqual(60);
    });

    it('gives the link the configured lifetime (RESET_LINK_LIFETIME_MINUTES), and the e-mail says it', async () => {
      const email = 'lifetime@example.com';
      await newUser(email);
      const { db } = harness.database;
      const { rprq, mailIds } = await initiatePasswordReset(
        db,
        { email, requestId },
        { portalUrl: PORTAL_URL, fallbackTenantName: 'Demo Immobilien AG', linkLifetimeMinutes: 90 },
      );
      const stored = await db
        .selectFrom('password_reset_requests')
        .select('expires_at')
        .where('rprq', '=', rprq)
        .executeTakeFirstOrThrow();
      const minutes = (stored.expires_at.getTime() - Date.now()) / 60_000;
      expect(minutes).toBeGreaterThan(89);
      expect(minutes).toBeLessThanOrEqual(90);
      // Read from the outbox, never sent: the route, not this call, hands it to the relay.
      const mail = await db
        .selectFrom('mail_outbox')
        .select('payload')
        .where('id', 'in', mailIds)
        .executeTakeFirstOrThrow();
      await db.deleteFrom('mail_outbox').where('id', 'in', mailIds).execute();
      expect(mail.payload.text).toContain('Der Link ist 90 Minuten gültig.');
    });

    it('answers known and unknown e-mails after the same minimum time', async () => {
      await newUser('timed@example.com');
      for (const email of ['timed@example.com', 'untimed@example.com']) {
        const startedAt = Date.now();
        const answer = await initiate(email);
        expect(Date.now() - startedAt).toBeGreaterThanOrEqual(145);
        expect(resetPasswordInitiatedSchema.parse(answer.data).reset_initiated).toBe(true);
      }
    });

    it('answers an unknown e-mail the same way and stores and sends nothing', async () => {
      const before = await countRows();
      const answer = await initiate('stranger@example.com');
      expect(answer).toEqual({
        success: true,
        status: 200,
        data: { reset_initiated: true, rprq: expect.stringMatching(UUID) },
      });
      // An e-mail leaves only through the outbox, written before the answer: no row, no e-mail.
      expect(await countRows()).toEqual(before);
    });

    it("writes in the user's language, else the asker's, and brands the tenant of the request", async () => {
      await newUser('french@example.com', { locale: 'fr-CH' });
      await newUser('english@example.com');
      await newUser('italian@example.com');
      const acme = await startAuthorization(harness, new TestBrowser(), createPkce(), {
        client_id: 'acme-portal',
        redirect_uri: `${RP_URL}/acme-callback`,
      });
      await initiate('french@example.com', { acceptLanguage: 'en' });
      await initiate('english@example.com', { acceptLanguage: 'en-GB,en;q=0.9', requestId: acme.requestId });
      await initiate('italian@example.com', {}, { acceptlanguage: 'it-CH' });

      expect((await smtp.waitFor('french@example.com')).subject).toContain('Demo Immobilien AG');
      expect((await smtp.waitFor('french@example.com')).html).toContain('<html lang="fr">');
      const english = await smtp.waitFor('english@example.com');
      expect(english.subject).toBe('New password for the Acme Wohnen AG tenant portal');
      expect(resetLinkOf(english).searchParams.get('subdomain')).toBe('acme');
      // A light brand colour gets dark text on the button.
      expect(english.html).toContain('background:#f59f00;color:#000000');
      expect((await smtp.waitFor('italian@example.com')).html).toContain('<html lang="it">');
    });

    it('refuses an unknown or expired requestId with 400 and 10001 for every e-mail alike, sending nothing', async () => {
      await newUser('late@example.com');
      const expired = (await startAuthorization(harness, new TestBrowser(), createPkce())).requestId;
      await harness.database.db
        .updateTable('oidc_payloads')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('kind', '=', 'Interaction')
        .where('id', '=', expired)
        .execute();
      const before = await countRows();
      for (const email of ['late@example.com', 'unknown-late@example.com']) {
        for (const staleId of ['no-such-request', expired]) {
          const startedAt = Date.now();
          const response = await call('/users-srv/resetpassword/initiate', {
            requestId: staleId,
            email,
            processingType: 'LINK',
            resetMedium: 'email',
          });
          expect(Date.now() - startedAt).toBeGreaterThanOrEqual(145);
          expect(response.status).toBe(400);
          expect(await response.json()).toMatchObject({
            success: false,
            status: 400,
            error: { code: 10001, status: 400, moreInfo: '' },
          });
        }
      }
      expect(await countRows()).toEqual(before);
    });

    it('sends at most five e-mails per account in 15 minutes, answering alike', async () => {
      const email = 'limited@example.com';
      await newUser(email);
      for (let count = 1; count <= 5; count += 1) await initiate(email);
      await smtp.waitFor(email, 5);
      const before = await countRows();
      const sixth = await initiate(email);
      expect(sixth.data).toEqual({ reset_initiated: true, rprq: expect.stringMatching(UUID) });
      expect(await countRows()).toEqual(before);
      const stored = await harness.database.db
        .selectFrom('password_reset_requests')
        .select('rprq')
        .where('rprq', '=', sixth.data.rprq)
        .execute();
      expect(stored).toEqual([]);
    });

    it('does not keep the content of a sent e-mail', async () => {
      await newUser('erased@example.com');
      await initiate('erased@example.com');
      await smtp.waitFor('erased@example.com');
      // The relay marks a message delivered after the SMTP server has taken it.
      const undelivered = () =>
        harness.database.db
          .selectFrom('mail_outbox')
          .select('id')
          .where('delivered_at', 'is', null)
          .execute();
      await waitUntil('every e-mail is marked delivered', async () => (await undelivered()).length === 0);
      const rows = await harness.database.db.selectFrom('mail_outbox').select('payload').execute();
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.payload).toEqual({});
    });

    it.each([
      ['no token', {}, null],
      ['a wrong media type', 'email=x', 'text/plain'],
    ])('refuses a call with %s', async (_name, body, kind) => {
      const response =
        kind === null
          ? await call('/users-srv/resetpassword/initiate', body, {}, null)
          : await call('/users-srv/resetpassword/initiate', body, { 'content-type': kind });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(await response.json()).toMatchObject({ success: false });
    });

    it.each([
      ['a bad e-mail', { email: 'not-an-address' }],
      ['another processingType', { processingType: 'CODE' }],
      ['another resetMedium', { resetMedium: 'sms' }],
      ['no requestId', { requestId: undefined }],
    ])('answers %s with a 400 envelope', async (_name, change) => {
      const response = await call('/users-srv/resetpassword/initiate', {
        requestId,
        email: 'known@example.com',
        processingType: 'LINK',
        resetMedium: 'email',
        ...change,
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        success: false,
        status: 400,
        error: { code: 10000 },
      });
    });
  });

  describe('accept', () => {
    it('sets the new password once, keeps the status and reports PASSWORD_RESET', async () => {
      const email = 'accept@example.com';
      const sub = await newUser(email);
      const { rprq, exchangeId } = await resetLink(email);
      const response = await accept({
        resetRequestId: rprq,
        exchangeId,
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      const answer = (await response.json()) as { data: unknown };
      expect(answer).toEqual({ success: true, status: 200, data: { reseted: true } });
      expect(resetPasswordAcceptedSchema.parse(answer.data).reseted).toBe(true);
      expect(await signsInWith(email, NEW_PASSWORD)).toBe(true);
      expect(await signsInWith(email, OLD_PASSWORD)).toBe(false);
      const event = await receiver.waitForType(email, 'PASSWORD_RESET');
      expect(event).toMatchObject({
        eventtype: 'PASSWORD_RESET',
        sub,
        email,
        client_id: 'property-portal-demo',
      });

      const again = await accept({
        resetRequestId: rprq,
        exchangeId,
        password: 'An0ther-Pass!',
        confirmPassword: 'An0ther-Pass!',
      });
      expect(again.status).toBe(400);
      expect(await again.json()).toMatchObject({
        success: false,
        status: 400,
        error: { code: 10002, status: 400 },
      });
      expect(await signsInWith(email, NEW_PASSWORD)).toBe(true);
    });

    it('lets exactly one of two parallel accepts through', async () => {
      const email = 'twice@example.com';
      await newUser(email);
      const { rprq, exchangeId } = await resetLink(email);
      const passwords = ['Paral1el-One!', 'Paral1el-Two!'];
      const responses = await Promise.all(
        passwords.map((password) =>
          accept({ resetRequestId: rprq, exchangeId, password, confirmPassword: password }),
        ),
      );
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([200, 400]);
      const winner = passwords[responses.findIndex((response) => response.status === 200)] ?? '';
      expect(await signsInWith(email, winner)).toBe(true);
    });

    it('refuses a wrong exchange id, an unknown request and an expired one alike', async () => {
      const email = 'refused@example.com';
      await newUser(email);
      const { rprq, exchangeId } = await resetLink(email);
      const passwords = { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD };
      for (const body of [
        { resetRequestId: rprq, exchangeId: `${exchangeId}x`, ...passwords },
        { resetRequestId: 'no-such-request', exchangeId, ...passwords },
      ]) {
        const response = await accept(body);
        expect(response.status).toBe(400);
        expect(await response.json()).toMatchObject({ error: { code: 10002 } });
      }
      await harness.database.db
        .updateTable('password_reset_requests')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('rprq', '=', rprq)
        .execute();
      const expired = await accept({ resetRequestId: rprq, exchangeId, ...passwords });
      expect(expired.status).toBe(400);
      expect(await expired.json()).toMatchObject({ error: { code: 10002 } });
      expect(await signsInWith(email, OLD_PASSWORD)).toBe(true);
    });

    it('refuses mismatched and weak passwords and leaves the link usable', async () => {
      const email = 'rules@example.com';
      await newUser(email);
      const { rprq, exchangeId } = await resetLink(email);
      const mismatch = await accept({
        resetRequestId: rprq,
        exchangeId,
        password: NEW_PASSWORD,
        confirmPassword: 'Other-Passw0rd!',
      });
      expect(mismatch.status).toBe(417);
      expect(await mismatch.json()).toMatchObject({ status: 417, error: { code: 10009, status: 417 } });
      const weak = await accept({
        resetRequestId: rprq,
        exchangeId,
        password: 'weak',
        confirmPassword: 'weak',
      });
      expect(weak.status).toBe(417);
      expect(await weak.json()).toMatchObject({ status: 417, error: { code: 10012, status: 417 } });
      const missing = await accept({ resetRequestId: rprq, exchangeId });
      expect(missing.status).toBe(400);
      expect(await missing.json()).toMatchObject({ error: { code: 10000 } });
      const good = await accept({
        resetRequestId: rprq,
        exchangeId,
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      expect(good.status).toBe(200);
    });

    it('leaves a locked account locked until PATCH status VERIFIED', async () => {
      const email = 'locked-reset@example.com';
      const sub = await newUser(email);
      const patchStatus = (status: string) =>
        fetch(`${harness.baseUrl}/user-srv/users/${sub}/status`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ status }),
        });
      // Concierge's own lock after the third failure (the server sets it through the admin API).
      for (let attempt = 0; attempt < 3; attempt += 1) await signsInWith(email, 'Wr0ng-Passw0rd!');
      expect((await patchStatus('DECLINED')).status).toBe(200);

      const { rprq, exchangeId } = await resetLink(email);
      await accept({
        resetRequestId: rprq,
        exchangeId,
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      expect((await findUserByEmail(harness.database.db, email))?.status).toBe('DECLINED');
      expect(await signsInWith(email, NEW_PASSWORD)).toBe(false);

      expect((await patchStatus('VERIFIED')).status).toBe(200);
      expect(await signsInWith(email, NEW_PASSWORD)).toBe(true);
      expect((await findUserByEmail(harness.database.db, email))?.failed_login_attempts).toBe(0);
    });

    it('needs the admin token', async () => {
      const response = await call('/users-srv/resetpassword/accept', {}, {}, null);
      expect(response.status).toBe(401);
    });
  });
});
