import { type MailSink, type SunkMail, startMailSink } from '@concierge/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientDirectory } from '../oidc/clients';
import {
  adminToken,
  createPkce,
  exchangeCode,
  type ProviderHarness,
  RP_CLIENT_ID,
  RP_REDIRECT_URI,
  RP_URL,
  signIn,
  startAuthorization,
  startProvider,
  type TokenSet,
} from '../test-support/provider-harness';
import { TestBrowser } from '../test-support/test-browser';
import { createUser } from '../users/users';
import { acceptPasswordReset } from './accept-reset';

const OLD_PASSWORD = 'Old-Passw0rd!';
const NEW_PASSWORD = 'New-Passw0rd!';
const BRANDED_CLIENT = {
  client_id: 'acme-portal',
  client_name: 'Acme Wohnen AG',
  token_endpoint_auth_method: 'none',
  grant_types: ['authorization_code'],
  redirect_uris: [`${RP_URL}/acme-callback`],
  subdomain: 'acme',
  brand_color: '#f59f00',
};

function resetLinkOf(mail: SunkMail): { rprq: string; exchangeId: string } {
  const link = /https?:\/\/\S+\/password-set\?\S+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no reset link in: ${mail.text}`);
  const url = new URL(link);
  return { rprq: url.searchParams.get('rprq') ?? '', exchangeId: url.searchParams.get('exchangeId') ?? '' };
}

/** Hardening, point 5: a completed reset evicts whoever else was signed in, and tells the user. */
describe('a password reset', () => {
  let smtp: MailSink;
  let harness: ProviderHarness;
  let token: string;
  beforeAll(async () => {
    smtp = await startMailSink();
    harness = await startProvider([BRANDED_CLIENT], { env: { SMTP_URL: smtp.url } });
    token = await adminToken(harness);
  });
  afterAll(async () => {
    await harness.close();
    await smtp.close();
  });

  async function newUser(email: string, locale: string | null = null): Promise<string> {
    const created = await createUser(harness.database.db, {
      email,
      password: OLD_PASSWORD,
      status: 'VERIFIED',
      locale,
    });
    if (!created.isCreated) throw new Error('user not created');
    return created.sub;
  }

  function adminPost(path: string, body: unknown): Promise<Response> {
    return fetch(`${harness.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
  }

  /** Initiates a reset (with the given client's request id) and returns the ids of the n-th mailed link. */
  async function initiate(email: string, count: number, clientOverrides: Record<string, string> = {}) {
    const { requestId } = await startAuthorization(harness, new TestBrowser(), createPkce(), clientOverrides);
    const response = await adminPost('/users-srv/resetpassword/initiate', {
      requestId,
      email,
      processingType: 'LINK',
      resetMedium: 'email',
    });
    expect(response.status).toBe(200);
    return resetLinkOf(await smtp.waitFor(email, count));
  }

  function accept(link: { rprq: string; exchangeId: string }, password = NEW_PASSWORD) {
    return adminPost('/users-srv/resetpassword/accept', {
      resetRequestId: link.rprq,
      exchangeId: link.exchangeId,
      password,
      confirmPassword: password,
    });
  }

  async function reset(email: string, count = 1): Promise<void> {
    const response = await accept(await initiate(email, count));
    expect(response.status).toBe(200);
  }

  /** Signs in at the relying party and returns the browser (with its provider session) and tokens. */
  async function signedIn(email: string): Promise<{ browser: TestBrowser; tokens: TokenSet }> {
    const browser = new TestBrowser();
    const { code, pkce } = await signIn(harness, browser, { email, password: OLD_PASSWORD });
    const tokens = await exchangeCode(harness, code, pkce);
    return { browser, tokens };
  }

  function refresh(refreshToken: string | undefined): Promise<Response> {
    return fetch(`${harness.baseUrl}/token-srv/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: refreshToken ?? '',
        client_id: RP_CLIENT_ID,
      }).toString(),
    });
  }

  function userinfo(accessToken: string): Promise<Response> {
    return fetch(`${harness.baseUrl}/users-srv/userinfo`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
  }

  /** A silent authorization (prompt=none), as oidc-client-ts's signinSilent does it in an iframe. */
  async function silentSignIn(browser: TestBrowser): Promise<URL> {
    const url = `${harness.baseUrl}/authz-srv/authz?${new URLSearchParams({
      client_id: RP_CLIENT_ID,
      response_type: 'code',
      scope: 'openid',
      redirect_uri: RP_REDIRECT_URI,
      code_challenge: createPkce().challenge,
      code_challenge_method: 'S256',
      state: 'silent',
      prompt: 'none',
    })}`;
    return browser.followUntil(url, (next) => next.startsWith(RP_URL));
  }

  it('refuses the refresh tokens issued before it', async () => {
    const email = 'refresh-evicted@example.com';
    await newUser(email);
    const { tokens } = await signedIn(email);
    expect(tokens.refresh_token).toBeTruthy();

    await reset(email);
    const response = await refresh(tokens.refresh_token);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses the access tokens issued before it at userinfo', async () => {
    const email = 'access-evicted@example.com';
    await newUser(email);
    const { tokens } = await signedIn(email);
    expect((await userinfo(tokens.access_token)).status).toBe(200);

    await reset(email);
    expect((await userinfo(tokens.access_token)).status).toBe(401);
  });

  it('ends the provider sessions: prompt=none answers login_required, a new sign-in works', async () => {
    const email = 'session-evicted@example.com';
    await newUser(email);
    const { browser } = await signedIn(email);
    expect((await silentSignIn(browser)).searchParams.get('code')).toBeTruthy();

    await reset(email);
    const silent = await silentSignIn(browser);
    expect(silent.searchParams.get('error')).toBe('login_required');
    expect(silent.searchParams.get('code')).toBeNull();

    const again = await signIn(harness, browser, { email, password: NEW_PASSWORD });
    const tokens = await exchangeCode(harness, again.code, again.pkce);
    expect((await userinfo(tokens.access_token)).status).toBe(200);
    expect((await refresh(tokens.refresh_token)).status).toBe(200);
  });

  it("leaves other accounts' sessions and tokens alone", async () => {
    const bystander = 'bystander@example.com';
    await newUser(bystander);
    const { browser, tokens } = await signedIn(bystander);
    const email = 'resetting@example.com';
    await newUser(email);
    await signedIn(email);

    await reset(email);
    expect((await userinfo(tokens.access_token)).status).toBe(200);
    expect((await refresh(tokens.refresh_token)).status).toBe(200);
    expect((await silentSignIn(browser)).searchParams.get('code')).toBeTruthy();
  });

  it("sends a notice in the user's language, branded for the reset's tenant, with no link", async () => {
    const email = 'notice-fr@example.com';
    await newUser(email, 'fr-CH');
    await reset(email, 1);
    // Sent with the default client: tenant "Demo Immobilien AG".
    const notice = await smtp.waitFor(email, 2);
    expect(notice.subject).toBe(
      'Votre mot de passe pour le portail des locataires Demo Immobilien AG a été modifié',
    );
    expect(notice.html).toContain('<html lang="fr">');
    expect(notice.text).toContain('gérance');
    for (const part of [notice.text, notice.html]) {
      expect(part).not.toMatch(/https?:\/\//);
      expect(part).not.toContain('password-set');
      expect(part).not.toContain('href=');
    }
  });

  it.each([
    ['de', null, 'Ihr Passwort für das Mieterportal Acme Wohnen AG wurde geändert', 'an Ihre Verwaltung'],
    ['it', 'it', 'La password per il portale inquilini Acme Wohnen AG è stata modificata', 'amministrazione'],
    ['en', 'en-GB', 'Your password for the Acme Wohnen AG tenant portal was changed', 'property manager'],
  ])(
    'writes the notice in %s with the brand of the client the reset started from',
    async (language, locale, subject, contact) => {
      const email = `notice-${language}@example.com`;
      await newUser(email, locale);
      const link = await initiate(email, 1, {
        client_id: 'acme-portal',
        redirect_uri: `${RP_URL}/acme-callback`,
      });
      const changedAt = new Date();
      expect((await accept(link)).status).toBe(200);
      const notice = await smtp.waitFor(email, 2);
      expect(notice.subject).toBe(subject);
      expect(notice.html).toContain(`<html lang="${language}">`);
      expect(notice.html).toContain('#f59f00');
      expect(notice.text).toContain(contact);
      // When it happened, in Swiss time.
      const day = new Intl.DateTimeFormat('de-CH', {
        timeZone: 'Europe/Zurich',
        day: 'numeric',
        month: 'long',
        year: 'numeric',
      }).format(changedAt);
      if (language === 'de') expect(notice.text).toContain(day);
      expect(notice.text).not.toMatch(/https?:\/\//);
      expect(notice.html).not.toContain('href=');
      if (language === 'de') expect(notice.text).not.toContain('ß');
    },
  );

  it('voids the older reset links once a newer one is initiated', async () => {
    const email = 'newer-link@example.com';
    await newUser(email);
    const older = await initiate(email, 1);
    const newer = await initiate(email, 2);

    const refused = await accept(older);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ success: false, status: 400, error: { code: 10002 } });
    expect((await accept(newer)).status).toBe(200);
  });

  it('changes nothing at all when a part of it fails', async () => {
    const email = 'all-or-nothing@example.com';
    await newUser(email);
    const { browser, tokens } = await signedIn(email);
    const link = await initiate(email, 1);
    const mailsWritten = () => harness.database.db.selectFrom('mail_outbox').select('id').execute();
    const mailsBefore = (await mailsWritten()).length;
    // Fails after the password and the revocation are written, while the notice is being made.
    const failingClients = {
      get() {
        throw new Error('boom');
      },
    } as unknown as ClientDirectory;
    await expect(
      acceptPasswordReset(
        harness.database.db,
        { rprq: link.rprq, exchangeId: link.exchangeId, password: NEW_PASSWORD },
        { fallbackClientId: 'x', clients: failingClients, fallbackTenantName: 'x' },
      ),
    ).rejects.toThrow('boom');

    expect((await userinfo(tokens.access_token)).status).toBe(200);
    expect((await refresh(tokens.refresh_token)).status).toBe(200);
    expect((await silentSignIn(browser)).searchParams.get('code')).toBeTruthy();
    // An e-mail leaves only through the outbox, written in the reset's transaction: no new row, no
    // notice on its way.
    expect(await mailsWritten()).toHaveLength(mailsBefore);
    expect(smtp.to(email)).toHaveLength(1);
    // The link was not used up, and the old password still works until it is.
    expect((await accept(link)).status).toBe(200);
  });
});
