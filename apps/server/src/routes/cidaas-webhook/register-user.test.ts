import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  codeRow,
  DEMO_CLIENT_ID,
  insertCode,
  outboxFor,
  postPortalCall,
  register,
  STRONG_PASSWORD,
  uniqueEmail,
} from '../../test-support/account-fixtures';
import { startAtAFullHour } from '../../test-support/clock';
import { providerUserOf } from '../../test-support/provider-users';
import { startTestServer } from '../../test-support/test-server';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer({}, { provider: true });
}, 120_000);
afterAll(() => server?.close());

let address = 0;
/** Each test its own client address, so that the per-IP limit only bites where a test wants it. */
const nextIp = () => {
  address += 1;
  return `10.1.${Math.floor(address / 250)}.${address % 250}`;
};

async function expectNothingChanged(code: string, email: string) {
  expect(await codeRow(server.db, code)).toMatchObject({ status: 'unused', claimed_email: null, sub: null });
  expect(await outboxFor(server.db, email)).toEqual([]);
  const activations = await server.db
    .selectFrom('activations')
    .selectAll()
    .where('email', '=', email)
    .execute();
  expect(activations).toEqual([]);
}

describe('POST /api/cidaas-webhook/register-user', () => {
  it('registers a PENDING user, uses the code and queues the activation e-mail in the browser language', async () => {
    const code = await insertCode(server.db);
    const email = uniqueEmail();
    const response = await register(
      server.app,
      { email: email.toUpperCase(), code: code.toUpperCase() },
      { headers: { 'accept-language': 'fr-CH,fr;q=0.9' }, remoteAddress: nextIp() },
    );
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      success: true,
      status: 200,
      data: { sub: expect.any(String), activationMailQueued: true },
    });
    const { sub } = body.data;

    expect(await codeRow(server.db, code)).toMatchObject({
      status: 'used',
      sub,
      claimed_email: email,
      claimed_language: 'fr',
      used_at: expect.any(Date),
    });
    // cidaas's self-registered users: VERIFIED, with the e-mail not verified until the activation link.
    expect(await providerUserOf(server.provider, email)).toMatchObject({
      sub,
      status: 'VERIFIED',
      emailVerified: false,
    });
    const [activation] = await server.db
      .selectFrom('activations')
      .selectAll()
      .where('sub', '=', sub)
      .execute();
    expect(activation).toMatchObject({
      email,
      tenant: 'demo',
      language: 'fr',
      used_at: null,
      voided_at: null,
    });
    expect(activation!.verification_hash).toMatch(/^[0-9a-f]{64}$/);
    const hours = (activation!.expires_at.getTime() - activation!.created_at.getTime()) / 3_600_000;
    expect(hours).toBe(server.config.activationLinkTtlHours);
    const [mail] = await outboxFor(server.db, email);
    expect(mail).toMatchObject({
      kind: 'activation',
      subject: expect.stringContaining('Demo Immobilien AG'),
    });
    expect(mail!.subject).toMatch(/^Activez votre compte/);
    expect(mail!.text).toContain('http://portal.test/verification-complete?email=');
  });

  describe('refuses a code', () => {
    it('that does not exist', async () => {
      const email = uniqueEmail();
      const response = await register(server.app, { email, code: randomUUID() }, { remoteAddress: nextIp() });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        success: false,
        status: 400,
        error: { code: 'registrationcode_does_not_exists' },
      });
    });

    it('of another tenant, as if it did not exist', async () => {
      const code = await insertCode(server.db, 'it2');
      const email = uniqueEmail();
      const response = await register(server.app, { email, code }, { remoteAddress: nextIp() });
      expect(response.json()).toMatchObject({
        status: 400,
        error: { code: 'registrationcode_does_not_exists' },
      });
      expect(await codeRow(server.db, code)).toMatchObject({ status: 'unused', claimed_email: null });
    });

    it('that was revoked', async () => {
      const code = await insertCode(server.db, 'demo', 'revoked');
      const response = await register(
        server.app,
        { email: uniqueEmail(), code },
        { remoteAddress: nextIp() },
      );
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: { code: 'registrationCodeInvalid' } });
    });

    it('that was used, and one whose registration is under way', async () => {
      const used = await insertCode(server.db);
      expect(
        (await register(server.app, { email: uniqueEmail(), code: used }, { remoteAddress: nextIp() }))
          .statusCode,
      ).toBe(200);
      const again = await register(
        server.app,
        { email: uniqueEmail(), code: used },
        { remoteAddress: nextIp() },
      );
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ error: { code: 'registration_code_already_registered_db' } });

      const pending = await insertCode(server.db, 'demo', 'pending');
      const response = await register(
        server.app,
        { email: uniqueEmail(), code: pending },
        { remoteAddress: nextIp() },
      );
      expect(response.json()).toMatchObject({
        status: 409,
        error: { code: 'registration_code_already_registered_db' },
      });
    });

    it.each([
      ['not-a-uuid', 'registrationCodeInvalidFormat'],
      ['00000000-0000-0000-0000-000000000000', 'registrationCodeInvalidFormat'],
      ['', 'registrationCodeRequired'],
    ])('that is malformed (%j)', async (code, expected) => {
      const response = await register(
        server.app,
        { email: uniqueEmail(), code },
        { remoteAddress: nextIp() },
      );
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: { code: expected } });
    });

    it('that is missing', async () => {
      const response = await postPortalCall(
        server.app,
        'register-user',
        { email: uniqueEmail(), password: STRONG_PASSWORD, clientid: DEMO_CLIENT_ID },
        { remoteAddress: nextIp() },
      );
      expect(response.json()).toMatchObject({ status: 400, error: { code: 'registrationCodeRequired' } });
    });
  });

  describe('refuses an e-mail address', () => {
    it('that already registered here with another code', async () => {
      const email = uniqueEmail();
      const first = await insertCode(server.db);
      expect(
        (await register(server.app, { email, code: first }, { remoteAddress: nextIp() })).statusCode,
      ).toBe(200);
      const second = await insertCode(server.db);
      const response = await register(server.app, { email, code: second }, { remoteAddress: nextIp() });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ error: { code: 'email_already_registered_db' } });
      expect(await codeRow(server.db, second)).toMatchObject({ status: 'unused', claimed_email: null });
    });

    it('that two parallel registrations with different codes name', async () => {
      const email = uniqueEmail();
      const codes = [await insertCode(server.db), await insertCode(server.db)];
      const responses = await Promise.all(
        codes.map((code) => register(server.app, { email, code }, { remoteAddress: nextIp() })),
      );
      expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
      const refused = responses.find((response) => response.statusCode === 409)!;
      expect(refused.json()).toMatchObject({ error: { code: 'email_already_registered_db' } });
      const statuses = await Promise.all(codes.map(async (code) => (await codeRow(server.db, code)).status));
      expect(statuses.sort()).toEqual(['unused', 'used']);
    });

    it('that the provider knows already', async () => {
      const code = await insertCode(server.db);
      const email = 'demo@concierge.test';
      const response = await register(server.app, { email, code }, { remoteAddress: nextIp() });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({
        error: { code: 'email_already_registered_identity_provider' },
      });
      await expectNothingChanged(code, email);
    });

    it('that is malformed, naming the field', async () => {
      const code = await insertCode(server.db);
      const response = await register(server.app, { email: 'anna@', code }, { remoteAddress: nextIp() });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        error: { code: 'missing_request_property', error: 'Invalid or missing: email' },
      });
      await expectNothingChanged(code, 'anna@');
    });
  });

  it('refuses a weak password with the password rule and changes nothing', async () => {
    const code = await insertCode(server.db);
    const email = uniqueEmail();
    const response = await register(
      server.app,
      { email, code, password: 'password' },
      { remoteAddress: nextIp() },
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: {
        code: 'registration_error',
        error: expect.stringMatching(/6 to 39 characters.*special character/),
      },
    });
    expect(response.body).not.toContain('"password"');
    await expectNothingChanged(code, email);
    expect(await providerUserOf(server.provider, email)).toBeNull();
  });

  it('refuses an unknown client id', async () => {
    const code = await insertCode(server.db);
    const email = uniqueEmail();
    const response = await register(
      server.app,
      { email, code, clientid: 'nobody' },
      { remoteAddress: nextIp() },
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: { code: 'missing_request_property', error: expect.stringContaining('clientid') },
    });
    await expectNothingChanged(code, email);
  });

  describe('with an invitation', () => {
    async function invite(email: string, options: { isRevoked?: boolean } = {}) {
      const code = await insertCode(server.db);
      const id = randomUUID();
      await server.db
        .insertInto('invitations')
        .values({
          id,
          tenant: 'demo',
          email,
          code,
          language: 'de',
          created_at: new Date(),
          revoked_at: options.isRevoked ? new Date() : null,
        })
        .execute();
      return { id, code };
    }

    it('registers the invited e-mail with its code', async () => {
      const email = uniqueEmail();
      const invitation = await invite(email);
      const response = await register(
        server.app,
        { email, code: invitation.code, invite_id: invitation.id },
        { remoteAddress: nextIp() },
      );
      expect(response.statusCode).toBe(200);
    });

    it('refuses another e-mail, another code, an unknown or a withdrawn invitation', async () => {
      const email = uniqueEmail();
      const invitation = await invite(email);
      const otherCode = await insertCode(server.db);
      const withdrawn = await invite(uniqueEmail(), { isRevoked: true });
      const attempts = [
        { email: uniqueEmail(), code: invitation.code, invite_id: invitation.id },
        { email, code: otherCode, invite_id: invitation.id },
        { email, code: invitation.code, invite_id: randomUUID() },
        {
          email: (
            await server.db
              .selectFrom('invitations')
              .select('email')
              .where('id', '=', withdrawn.id)
              .executeTakeFirstOrThrow()
          ).email,
          code: withdrawn.code,
          invite_id: withdrawn.id,
        },
      ];
      const codes = [];
      for (const attempt of attempts) {
        const response = await register(server.app, attempt, { remoteAddress: nextIp() });
        expect(response.statusCode).toBe(400);
        codes.push(response.json().error.code);
      }
      // A withdrawn invitation says so: the tenant opened the link as sent, the manager took it back.
      expect(codes).toEqual([
        'invitation_mismatch',
        'invitation_mismatch',
        'invitation_mismatch',
        'invitation_withdrawn',
      ]);
      await expectNothingChanged(invitation.code, email);
      await expectNothingChanged(otherCode, email);
    });

    it('says a withdrawn invitation on arrival, the link’s code and e-mail in the form, and nothing of an open one', async () => {
      const email = uniqueEmail();
      const withdrawn = await invite(email, { isRevoked: true });
      const arrive = (invitation: { id: string; code: string }) =>
        server.app.inject({
          url: `/register?subdomain=demo&invite_id=${invitation.id}&registrationcode=${invitation.code}&email=${encodeURIComponent(email)}`,
          headers: { accept: 'text/html', 'accept-language': 'de' },
        });
      // What the page shows, without the texts the page carries for the browser.
      const shown = async (invitation: { id: string; code: string }) => {
        const answer = await arrive(invitation);
        expect(answer.statusCode).toBe(200);
        return answer.body.slice(0, answer.body.indexOf('id="concierge-state"'));
      };
      const page = await shown(withdrawn);
      expect(page).toMatch(/role="alert"[^>]*>.*Diese Einladung wurde von Ihrer Verwaltung zurückgezogen\./s);
      expect(page).toMatch(new RegExp(`<input[^>]+value="${withdrawn.code}"`));
      expect(page).toMatch(new RegExp(`<input[^>]+value="${email}"`));
      expect(await shown(await invite(uniqueEmail()))).not.toContain('zurückgezogen');
    });

    it("keeps an invitation's code for the invited e-mail when invite_id is left out or null", async () => {
      const email = uniqueEmail();
      const invitation = await invite(email);
      const stranger = uniqueEmail();
      // Issue 26: `null` is "no invitation", as leaving it out is, not a missing field.
      for (const inviteId of [undefined, null]) {
        const response = await register(
          server.app,
          { email: stranger, code: invitation.code, invite_id: inviteId },
          { remoteAddress: nextIp() },
        );
        expect(response.json()).toMatchObject({ status: 400, error: { code: 'invitation_mismatch' } });
      }
      await expectNothingChanged(invitation.code, stranger);
      const invited = await register(
        server.app,
        { email, code: invitation.code, invite_id: null },
        { remoteAddress: nextIp() },
      );
      expect(invited.statusCode).toBe(200);
    });
  });

  describe('request checks', () => {
    it('takes JSON only', async () => {
      for (const contentType of ['text/plain', 'application/x-www-form-urlencoded']) {
        const response = await server.app.inject({
          method: 'POST',
          url: '/api/cidaas-webhook/register-user',
          headers: { 'content-type': contentType },
          payload: 'email=a@b.ch',
        });
        expect(response.statusCode).toBe(415);
        expect(response.json()).toMatchObject({ success: false, error: { code: 'unsupported_media_type' } });
      }
      const broken = await postPortalCall(server.app, 'register-user', '{"email":', {
        remoteAddress: nextIp(),
      });
      expect(broken.statusCode).toBe(400);
      expect(broken.json()).toMatchObject({ success: false, status: 400 });
    });

    it("answers 403 to another site's Origin and accepts the portal's own", async () => {
      const code = await insertCode(server.db);
      const email = uniqueEmail();
      const foreign = await register(
        server.app,
        { email, code },
        { headers: { origin: 'https://evil.example' }, remoteAddress: nextIp() },
      );
      expect(foreign.statusCode).toBe(403);
      expect(foreign.json()).toMatchObject({ success: false, error: { code: 'forbidden_origin' } });
      await expectNothingChanged(code, email);
      const own = await register(
        server.app,
        { email, code },
        { headers: { origin: 'http://portal.test' }, remoteAddress: nextIp() },
      );
      expect(own.statusCode).toBe(200);
    });

    it('limits attempts per e-mail address', async () => {
      startAtAFullHour();
      const email = uniqueEmail();
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 11; attempt += 1) {
        const response = await register(
          server.app,
          { email, code: randomUUID() },
          { remoteAddress: nextIp() },
        );
        statuses.push(response.statusCode);
      }
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
      expect(statuses[10]).toBe(429);
      const code = await insertCode(server.db);
      const limited = await register(server.app, { email, code }, { remoteAddress: nextIp() });
      expect(limited.json()).toMatchObject({ status: 429, error: { code: 'too_many_requests' } });
      await expectNothingChanged(code, email);
    });

    it('limits how often one code can tell that an address is registered', async () => {
      startAtAFullHour();
      const code = await insertCode(server.db);
      const registered = async () => {
        const email = uniqueEmail('registered');
        const used = await insertCode(server.db);
        await server.db
          .updateTable('registration_codes')
          .set({ status: 'used', claimed_email: email, sub: randomUUID(), used_at: new Date() })
          .where('code', '=', used)
          .execute();
        return email;
      };
      const answers: string[] = [];
      for (let probe = 0; probe < 6; probe += 1) {
        const response = await register(
          server.app,
          { email: await registered(), code },
          { remoteAddress: nextIp() },
        );
        answers.push(response.json().error.code);
      }
      expect(answers.slice(0, 5)).toEqual(Array(5).fill('email_already_registered_db'));
      expect(answers[5]).toBe('too_many_requests');
      // The code itself is untouched and still registers its rightful owner.
      expect(await codeRow(server.db, code)).toMatchObject({ status: 'unused', claimed_email: null });
      expect(
        (await register(server.app, { email: uniqueEmail(), code }, { remoteAddress: nextIp() })).statusCode,
      ).toBe(200);
    });

    it('limits attempts per client address', async () => {
      startAtAFullHour();
      const ip = nextIp();
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 31; attempt += 1) {
        statuses.push(
          (await register(server.app, { email: uniqueEmail(), code: randomUUID() }, { remoteAddress: ip }))
            .statusCode,
        );
      }
      expect(statuses.filter((status) => status === 400)).toHaveLength(30);
      expect(statuses[30]).toBe(429);
    });
  });

  it('lets one code make one identity, even for fifty parallel attempts', async () => {
    const code = await insertCode(server.db);
    const emails = Array.from({ length: 50 }, (_, index) => uniqueEmail(`race${index}`));
    const responses = await Promise.all(
      emails.map((email) => register(server.app, { email, code }, { remoteAddress: nextIp() })),
    );
    const winners = responses.filter((response) => response.statusCode === 200);
    expect(winners).toHaveLength(1);
    for (const response of responses.filter((candidate) => candidate.statusCode !== 200)) {
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ error: { code: 'registration_code_already_registered_db' } });
    }
    const atProvider = (
      await Promise.all(emails.map((email) => providerUserOf(server.provider, email)))
    ).filter((user) => user !== null);
    expect(atProvider).toHaveLength(1);
    const row = await codeRow(server.db, code);
    expect(row.status).toBe('used');
    expect(atProvider[0]).toMatchObject({ sub: row.sub });
    const mails = await server.db
      .selectFrom('mail_outbox')
      .select('recipient')
      .where('recipient', 'in', emails)
      .execute();
    expect(mails).toEqual([{ recipient: row.claimed_email }]);
  }, 60_000);
});
