import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  activationParams,
  codeRow,
  insertCode,
  register,
  STRONG_PASSWORD,
  uniqueEmail,
} from '../test-support/account-fixtures';
import { startTestServer } from '../test-support/test-server';

// Issue 25: every form works without JavaScript — posted to its page, answered with the page.

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer({}, { provider: true, smtp: true });
}, 120_000);
afterAll(() => server?.close());

let address = 0;
const nextIp = () => `10.25.0.${++address}`;

/** A visitor's browser: its form cookie, and the token of the last page it opened. */
interface Visitor {
  cookie: string;
  token: string;
}

async function open(url: string, visitor?: Visitor): Promise<{ visitor: Visitor; html: string }> {
  const response = await server.app.inject({
    url,
    headers: { 'accept-language': 'de-CH', ...(visitor ? { cookie: visitor.cookie } : {}) },
  });
  expect(response.statusCode).toBe(200);
  const token = /name="_csrf" value="([^"]+)"/.exec(response.body)?.[1];
  expect(token, 'the page carries a form token').toBeTruthy();
  const setCookie = response.cookies.find((cookie) => cookie.name === 'concierge-form');
  return {
    visitor: {
      cookie: setCookie ? `${setCookie.name}=${setCookie.value}` : (visitor?.cookie ?? ''),
      token: token!,
    },
    html: response.body,
  };
}

function post(url: string, fields: Record<string, string>, visitor?: Partial<Visitor>, origin?: string) {
  return server.app.inject({
    method: 'POST',
    url,
    remoteAddress: nextIp(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'accept-language': 'de-CH',
      ...(visitor?.cookie ? { cookie: visitor.cookie } : {}),
      ...(origin ? { origin } : {}),
    },
    payload: new URLSearchParams({
      ...fields,
      ...(visitor?.token ? { _csrf: visitor.token } : {}),
    }).toString(),
  });
}

const registration = (email: string, code: string) => ({
  email,
  'new-password': STRONG_PASSWORD,
  'new-password-confirmation': STRONG_PASSWORD,
  registrationcode: code,
  terms: 'on',
  clientid: 'property-portal-demo',
});

async function mailTo(email: string) {
  await server.app.backgroundJobs.outbox.runOnce();
  return (await server.mailSink!.waitFor(email, 1)).text;
}

describe('forms without JavaScript', () => {
  it('registers, and the activation link activates only once its button is pressed', async () => {
    const email = uniqueEmail('nojs');
    const code = await insertCode(server.db);
    const { visitor } = await open('/register?subdomain=demo');
    const registered = await post('/register?subdomain=demo', registration(email, code), visitor);
    expect(registered.statusCode).toBe(200);
    expect(registered.body).toContain(email);
    expect(registered.body).toContain('Registrierung');
    expect(registered.body).not.toContain(STRONG_PASSWORD);
    expect(registered.headers['cache-control']).toBe('no-store');

    const link = activationParams(await mailTo(email));
    const linkUrl = `/verification-complete?subdomain=demo&email=${encodeURIComponent(link.email)}&verificationid=${link.verificationid}`;
    // A mail scanner's GET (twice) leaves the account as it is: the page offers the button.
    await open(linkUrl);
    const page = await open(linkUrl);
    expect(page.html).toContain('Konto aktivieren');
    const pressed = await post(
      linkUrl,
      { email: link.email, verificationid: link.verificationid },
      page.visitor,
    );
    expect(pressed.statusCode).toBe(200);
    // Activated now, not before: a GET that had activated would make this "already activated".
    expect(pressed.body).toContain('Ihr Konto ist aktiviert');
  });

  it('answers refused input with an error summary, what was typed and never a password', async () => {
    const { visitor } = await open('/register?subdomain=demo');
    const response = await post(
      '/register?subdomain=demo',
      {
        ...registration('anna@', 'not a code'),
        'new-password-confirmation': 'Something-else-1',
      },
      visitor,
    );
    expect(response.statusCode).toBe(400);
    const summary = /<div[^>]*error-summary[\s\S]*?<\/ul>/.exec(response.body)?.[0] ?? '';
    expect(summary).toContain('autofocus');
    for (const field of ['email', 'new-password-confirmation', 'registrationcode']) {
      expect(summary).toContain(`href="#field-${field}"`);
    }
    expect(summary).not.toContain('href="#field-new-password"');
    expect(response.body).toContain('value="anna@"');
    expect(response.body).toContain('value="not a code"');
    expect(response.body).not.toContain(STRONG_PASSWORD);
    expect(response.body).not.toContain('Something-else-1');
  });

  it('shows the call’s refusal at the form, as the script would', async () => {
    const { visitor } = await open('/register?subdomain=demo');
    const unknownCode = '3f0c4b1e-8d2a-4c6f-9b7e-5a1d2c3e4f60';
    const response = await post(
      '/register?subdomain=demo',
      registration(uniqueEmail(), unknownCode),
      visitor,
    );
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.body).toContain('role="alert"');
    expect(response.body).toContain(`value="${unknownCode}"`);
  });

  it('refuses another site’s post, and one with another visitor’s token, changing nothing', async () => {
    const code = await insertCode(server.db);
    const email = uniqueEmail('csrf');
    const mine = (await open('/register?subdomain=demo')).visitor;
    const theirs = (await open('/register?subdomain=demo')).visitor;
    const attempts = [
      // Another site's form: the browser sends no SameSite=Lax cookie, and the site has no token.
      post('/register?subdomain=demo', registration(email, code), undefined, 'https://evil.example'),
      // A token of its own (the attacker opened the page), with the victim's cookie.
      post('/register?subdomain=demo', registration(email, code), {
        cookie: mine.cookie,
        token: theirs.token,
      }),
      // A cookie without a token.
      post('/register?subdomain=demo', registration(email, code), { cookie: mine.cookie }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.statusCode).toBe(403);
      expect(response.body).toContain('Das Formular war nicht mehr gültig');
      // The form comes again with a fresh token, so sending it again works.
      expect(response.body).toMatch(/name="_csrf" value="[^"]+"/);
    }
    expect((await codeRow(server.db, code))?.used_at ?? null).toBeNull();
    // The code is still good.
    const later = await register(server.app, { email, code }, { remoteAddress: nextIp() });
    expect(later.statusCode).toBe(200);
  });

  it('answers hostile form bodies with a 4xx and changes nothing', async () => {
    const { visitor } = await open('/register?subdomain=demo');
    const code = await insertCode(server.db);
    const form = (changes: Record<string, string>) =>
      new URLSearchParams({
        ...registration(uniqueEmail(), code),
        _csrf: visitor.token,
        ...changes,
      }).toString();
    for (const payload of [
      form({ email: 'a\u0000b@example.ch' }),
      `${form({})}&email=second%40example.ch`,
      `${form({})}&registrationcode=x`,
      form({ clientid: 'x'.repeat(9000) }),
      '%%%&&==',
    ]) {
      const response = await server.app.inject({
        method: 'POST',
        url: '/register?subdomain=demo',
        remoteAddress: nextIp(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: visitor.cookie },
        payload,
      });
      expect(response.statusCode, payload.slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, payload.slice(0, 80)).toBeLessThan(500);
    }
    expect((await codeRow(server.db, code))?.used_at ?? null).toBeNull();
  });

  it('asks for a new invitation from the page of a withdrawn one: page, its button’s post, the confirmation', async () => {
    // An invitation the property manager has withdrawn, as its link carries it.
    const email = uniqueEmail('invitee');
    const code = await insertCode(server.db, 'demo', 'revoked');
    const inviteId = randomUUID();
    await server.db
      .insertInto('invitations')
      .values({
        id: inviteId,
        tenant: 'demo',
        email,
        code,
        language: 'de',
        created_at: new Date(),
        revoked_at: new Date(),
      })
      .execute();
    const link = `/register?registrationcode=${code}&email=${encodeURIComponent(email)}&invite_id=${inviteId}&subdomain=demo`;
    const { visitor, html } = await open(link);
    // The button's form, not the registration's: its name tells the server which of the two it is.
    const form =
      /<form[^>]*>(?:(?!<\/form>)[\s\S])*name="_form" value="request-new-invitation"[\s\S]*?<\/form>/.exec(
        html,
      )?.[0];
    expect(form, 'the page offers the request as a form of its own').toBeTruthy();
    const fields = Object.fromEntries(
      [...form!.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)].map((match) => [
        match[1]!,
        match[2]!,
      ]),
    );
    // The link's parameters, under names apart from the registration form's beside it.
    expect(fields).toMatchObject({ invitation_id: inviteId, invitation_code: code, invitation_email: email });
    const { _csrf: _, ...posted } = fields;
    const response = await post(link, posted, visitor);
    expect(response.statusCode).toBe(200);
    // What the page shows, without the texts it carries for the browser.
    const shown = response.body.slice(0, response.body.indexOf('id="concierge-state"'));
    expect(shown).toMatch(/role="status"[^>]*>.*Ihre Verwaltung wurde benachrichtigt/s);
    expect(shown).not.toContain('Neue Einladung anfordern');
    const recorded = await server.db
      .selectFrom('invitation_requests')
      .select(['tenant', 'email'])
      .where('invitation_id', '=', inviteId)
      .execute();
    expect(recorded).toEqual([{ tenant: 'demo', email }]);
  });

  it('answers resend and reset the same for every address, without JavaScript', async () => {
    for (const [path, text] of [
      ['/resend-account-activation-email?subdomain=demo', 'Aktivierungs'],
      ['/password-reset-init?subdomain=demo', 'E-Mail'],
    ] as const) {
      const { visitor } = await open(path);
      const response = await post(path, { email: uniqueEmail('someone') }, visitor);
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('role="status"');
      expect(response.body).toContain(text);
    }
  });
});
