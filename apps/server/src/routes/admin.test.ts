import { createHash } from 'node:crypto';
import type { AdminAuditEntry } from '@concierge/contracts';
import { sql } from '@concierge/database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { codeRow, outboxFor, register, uniqueEmail } from '../test-support/account-fixtures';
import { adminApi, countCodes as codesOf } from '../test-support/admin-api';
import { seedAccountProtection } from '../test-support/protection-fixtures';
import { providerUserOf, userAtProvider } from '../test-support/provider-users';
import { startTestServer } from '../test-support/test-server';

const TOKEN = 'admin-token-for-the-tests';
// Beside it, as during a rotation (docs/operations.md, "Rotating a secret").
const NEXT_TOKEN = 'next-admin-token-of-the-tests';
const logLines: string[] = [];
let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer(
    { ADMIN_API_TOKEN: `${TOKEN},${NEXT_TOKEN}` },
    { provider: true, smtp: true, logStream: { write: (line) => logLines.push(line) } },
  );
}, 120_000);
afterAll(() => server?.close());

const admin = adminApi(() => server.app, TOKEN);

const countCodes = (tenant: string) => codesOf(server.db, tenant);

/** A page of the audit log, as the admin API answers it. */
async function auditPage(query = ''): Promise<{ entries: AdminAuditEntry[]; next: number | null }> {
  const response = await admin('GET', `/audit${query}`);
  expect(response.statusCode).toBe(200);
  return response.json().data;
}

const fingerprintOf = (token: string) => createHash('sha256').update(token).digest('hex').slice(0, 8);

describe('admin API authentication', () => {
  it.each([
    ['no token', undefined],
    ['a wrong token', 'admin-token-for-the-testz'],
    ['a prefix of the token', 'admin-token'],
  ])('refuses %s with 401', async (_label, token) => {
    const response = await admin('GET', '/codes', undefined, token ?? '');
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toContain('Bearer');
    expect(response.json()).toMatchObject({ success: false, error: { code: 'unauthorized' } });
  });

  it('takes either token during a rotation; a third is refused 401, warned of without it, counted, and changes nothing', async () => {
    const refusals = async () =>
      (await server.app.metrics.authRefusals.get()).values.find((value) => value.labels.surface === 'admin')
        ?.value;
    const [codesBefore, refusalsBefore] = [await countCodes('demo'), await refusals()];
    for (const token of [TOKEN, NEXT_TOKEN]) {
      expect((await admin('POST', '/codes', { tenant: 'demo' }, token)).statusCode).toBe(201);
    }
    const third = 'third-admin-token-of-the-tests';
    const refused = await admin('POST', '/codes', { tenant: 'demo' }, third);
    expect(refused.statusCode).toBe(401);
    expect(await countCodes('demo')).toBe(codesBefore + 2);
    expect(await refusals()).toBe((refusalsBefore ?? 0) + 1);
    const warning = logLines
      .map((line) => JSON.parse(line))
      .find((line) => line.reqId === refused.headers['x-request-id'] && line.level === 40);
    expect(warning).toMatchObject({ msg: 'admin API refused: missing or wrong token', tokenPresented: true });
    expect(logLines.join('\n')).not.toContain(third);
  });

  it('refuses a token in another scheme', async () => {
    const response = await server.app.inject({
      url: '/api/admin/codes',
      headers: { authorization: `Basic ${TOKEN}` },
    });
    expect(response.statusCode).toBe(401);
  });

  it('is off in a deployment unless ADMIN_API_TOKEN is set, and on with the dev default in development', async () => {
    const production = {
      CONCIERGE_DEV: 'false',
      DATABASE_URL: 'postgres://db.internal/concierge',
      PORTAL_URL: 'https://login.example.ch',
      PROVIDER_URL: 'https://example.cidaas.eu',
      APP_ENV: 'prod',
      SMTP_URL: 'smtp://relay.example.ch',
      MAIL_FROM: 'no-reply@example.ch',
      PROVIDER_ADMIN_CLIENT_SECRET: 'admin-client-secret-of-the-test',
      WEBHOOK_API_KEY: 'webhook-key-of-the-test',
      FORM_SECRET: 'form-secret-of-the-test',
      RESET_LINK_LIFETIME_MINUTES: '60',
    };
    expect(loadConfig(production).adminApiTokens).toEqual([]);
    expect(loadConfig({ ...production, ADMIN_API_TOKEN: TOKEN }).adminApiTokens).toEqual([TOKEN]);
    expect(loadConfig({ CONCIERGE_DEV: 'true' }).adminApiTokens).toEqual(['concierge-dev-admin-token']);
    expect(() => loadConfig({ CONCIERGE_DEV: 'true', ADMIN_API_TOKEN: 'short' })).toThrow(/ADMIN_API_TOKEN/);

    const off = await startTestServer(production);
    try {
      const response = await off.app.inject({
        url: '/api/admin/codes',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ success: false, error: { code: 'not_found' } });
    } finally {
      await off.close();
    }
  });
});

describe('registration codes', () => {
  it('creates codes for a tenant with the link a letter prints', async () => {
    const response = await admin('POST', '/codes', { tenant: 'r5', count: 3 });
    expect(response.statusCode).toBe(201);
    const { codes } = response.json().data;
    expect(codes).toHaveLength(3);
    for (const code of codes) {
      expect(code).toMatchObject({ tenant: 'r5', status: 'unused', claimedEmail: null, revokedAt: null });
      expect(code.code).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(code.registerUrl).toBe(`http://portal.test/register?registrationcode=${code.code}&subdomain=r5`);
    }
  });

  it('creates ten thousand at once, and no more', async () => {
    const many = await admin('POST', '/codes', { tenant: 'lacleman', count: 10_000 });
    expect(many.statusCode).toBe(201);
    expect(many.json().data.codes).toHaveLength(10_000);
    const tooMany = await admin('POST', '/codes', { tenant: 'lacleman', count: 10_001 });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({
      error: { code: 'invalid_request', error: 'Invalid or missing: count' },
    });
    const listed = await admin('GET', '/codes?tenant=lacleman&limit=10');
    expect(listed.json().data).toMatchObject({ total: 10_000 });
    expect(listed.json().data.codes).toHaveLength(10);
  }, 60_000);

  it('refuses an unknown tenant, bad counts and unknown fields', async () => {
    expect((await admin('POST', '/codes', { tenant: 'nobody' })).json()).toMatchObject({
      status: 400,
      error: { code: 'unknown_tenant' },
    });
    for (const body of [
      { tenant: 'demo', count: 0 },
      { tenant: 'demo', count: 1.5 },
      { tenant: 'demo', extra: 1 },
      {},
    ]) {
      expect((await admin('POST', '/codes', body)).statusCode).toBe(400);
    }
    const form = await server.app.inject({
      method: 'POST',
      url: '/api/admin/codes',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'text/plain' },
      payload: '{"tenant":"demo"}',
    });
    expect(form.statusCode).toBe(415);
  });

  it('lists codes by tenant and status', async () => {
    const [first, second] = (await admin('POST', '/codes', { tenant: 'alpenblick', count: 2 })).json().data
      .codes;
    await admin('POST', `/codes/${first.code}/revoke`);
    const unused = (await admin('GET', '/codes?tenant=alpenblick&status=unused')).json().data;
    expect(unused.codes.map((code: { code: string }) => code.code)).toEqual([second.code]);
    expect(unused.total).toBe(1);
    const revoked = (await admin('GET', '/codes?tenant=alpenblick&status=revoked')).json().data;
    expect(revoked.codes).toEqual([expect.objectContaining({ code: first.code, status: 'revoked' })]);
    expect((await admin('GET', '/codes?status=lost')).statusCode).toBe(400);
  });

  it('revokes an unused code (twice is fine) and refuses used and unknown ones', async () => {
    const [code] = (await admin('POST', '/codes', { tenant: 'demo' })).json().data.codes;
    const revoked = await admin('POST', `/codes/${code.code.toUpperCase()}/revoke`);
    expect(revoked.json()).toMatchObject({
      success: true,
      data: { code: { code: code.code, status: 'revoked' } },
    });
    expect((await admin('POST', `/codes/${code.code}/revoke`)).statusCode).toBe(200);
    const registration = await register(server.app, { email: uniqueEmail(), code: code.code });
    expect(registration.json()).toMatchObject({ error: { code: 'registrationCodeInvalid' } });

    const [used] = (await admin('POST', '/codes', { tenant: 'demo' })).json().data.codes;
    expect((await register(server.app, { email: uniqueEmail(), code: used.code })).statusCode).toBe(200);
    const refused = await admin('POST', `/codes/${used.code}/revoke`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      error: { code: 'code_not_revocable', error: expect.stringContaining('used') },
    });
    expect((await codeRow(server.db, used.code)).status).toBe('used');

    expect((await admin('POST', '/codes/3f0e4a53-4a8e-4d2b-9c7e-0d1c2b3a4f5e/revoke')).statusCode).toBe(404);
    expect((await admin('POST', '/codes/not-a-code/revoke')).statusCode).toBe(400);
  });
});

describe('invitations', () => {
  it('creates a code and the invitation and e-mails the invitation in its language', async () => {
    const email = uniqueEmail('invitee');
    const response = await admin('POST', '/invitations', {
      tenant: 'lacleman',
      email: email.toUpperCase(),
      language: 'fr',
    });
    expect(response.statusCode).toBe(201);
    const { invitation } = response.json().data;
    expect(invitation).toMatchObject({
      tenant: 'lacleman',
      email,
      codeStatus: 'unused',
      language: 'fr',
      revokedAt: null,
    });
    expect(invitation.registerUrl).toBe(
      `http://portal.test/register?registrationcode=${invitation.code}&email=${encodeURIComponent(email)}&invite_id=${invitation.id}&subdomain=lacleman`,
    );
    await server.app.backgroundJobs.outbox.runOnce();
    const mail = await server.mailSink!.waitFor(email);
    expect(mail.subject).toBe('Invitation au portail des locataires Gérance du Léman SA');
    expect(mail.text).toContain(invitation.code);
    expect(mail.text).toContain(invitation.registerUrl);

    // The invited person registers through the link.
    const registration = await register(server.app, {
      email,
      code: invitation.code,
      invite_id: invitation.id,
      clientid: 'property-portal-lacleman',
    });
    expect(registration.statusCode).toBe(200);
    const listed = (await admin('GET', '/invitations?tenant=lacleman')).json().data;
    expect(listed.invitations).toEqual([expect.objectContaining({ id: invitation.id, codeStatus: 'used' })]);
    expect(listed.total).toBe(1);
    // Nothing left to withdraw once somebody registered.
    const revoke = await admin('POST', `/invitations/${invitation.id}/revoke`);
    expect(revoke.statusCode).toBe(409);
    expect(revoke.json()).toMatchObject({ error: { code: 'invitation_already_used' } });
  });

  it('withdraws an invitation with its code', async () => {
    const email = uniqueEmail('withdrawn');
    const { invitation } = (await admin('POST', '/invitations', { tenant: 'demo', email })).json().data;
    expect(invitation.language).toBe('de');
    const revoked = await admin('POST', `/invitations/${invitation.id}/revoke`);
    expect(revoked.json()).toMatchObject({
      data: { invitation: { id: invitation.id, codeStatus: 'revoked', revokedAt: expect.any(String) } },
    });
    expect((await admin('POST', `/invitations/${invitation.id}/revoke`)).statusCode).toBe(200);
    const registration = await register(server.app, {
      email,
      code: invitation.code,
      invite_id: invitation.id,
    });
    expect(registration.json()).toMatchObject({ error: { code: 'invitation_withdrawn' } });
    expect((await codeRow(server.db, invitation.code)).status).toBe('revoked');
  });

  it('refuses an address that is registered already, bad input and unknown invitations', async () => {
    const email = uniqueEmail();
    const [code] = (await admin('POST', '/codes', { tenant: 'demo' })).json().data.codes;
    await register(server.app, { email, code: code.code });
    expect((await admin('POST', '/invitations', { tenant: 'demo', email })).json()).toMatchObject({
      status: 409,
      error: { code: 'email_already_registered_db' },
    });
    for (const body of [
      { tenant: 'demo', email: 'not-an-address' },
      { tenant: 'demo', email: uniqueEmail(), language: 'es' },
      { tenant: 'nobody', email: uniqueEmail() },
    ]) {
      expect((await admin('POST', '/invitations', body)).statusCode).toBe(400);
    }
    expect(
      (await admin('POST', '/invitations/3f0e4a53-4a8e-4d2b-9c7e-0d1c2b3a4f5e/revoke')).json(),
    ).toMatchObject({
      status: 404,
      error: { code: 'invitation_not_found' },
    });
  });
});

describe('unlocking an account', () => {
  /** An activated account at the provider, as Concierge's lock after three failures leaves it, or an operator's. */
  async function lockedAccount(lockedBy: 'concierge' | 'operator') {
    const email = uniqueEmail('locked');
    const { sub } = await userAtProvider(server.provider, email, { declined: true });
    if (lockedBy === 'concierge')
      await seedAccountProtection(server.db, email, { failures: 3, lock: 'locked', sub });
    else await seedAccountProtection(server.db, email, { failures: 2 });
    return email;
  }
  const statusOf = async (email: string) => (await providerUserOf(server.provider, email))?.status;
  const counterOf = async (email: string) =>
    (
      await server.app.inject({
        url: `/user-login-failed-counter?subdomain=r5&email=${encodeURIComponent(email)}`,
      })
    ).json()[0].counter;

  it("lifts Concierge's lock and count and the provider's DECLINED, once; again changes nothing", async () => {
    const email = await lockedAccount('concierge');
    expect(await counterOf(email)).toBe(3);
    const unlocked = await admin('POST', '/accounts/unlock', { email: `  ${email.toUpperCase()}` });
    expect(unlocked.statusCode).toBe(200);
    expect(unlocked.json().data).toEqual({ account: { email, wasLocked: true, failedSignInsCleared: 3 } });
    expect(await statusOf(email)).toBe('VERIFIED');
    expect(await counterOf(email)).toBe(0);

    const again = await admin('POST', '/accounts/unlock', { email });
    expect(again.json().data).toEqual({ account: { email, wasLocked: false, failedSignInsCleared: 0 } });
    expect(await statusOf(email)).toBe('VERIFIED');
    // Audited under the normalised e-mail, with no tenant: an account belongs to none.
    const audited = (await auditPage('?limit=2')).entries;
    expect(audited).toEqual([
      expect.objectContaining({
        action: 'account.unlock',
        tenant: null,
        target: email,
        outcome: 'unchanged',
      }),
      expect.objectContaining({ action: 'account.unlock', tenant: null, target: email, outcome: 'changed' }),
    ]);
  });

  it('changes nothing where a lock Concierge did not set holds, nor for an e-mail without an account', async () => {
    const email = await lockedAccount('operator');
    const [newestBefore] = (await auditPage('?limit=1')).entries;
    const refused = await admin('POST', '/accounts/unlock', { email });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: { code: 'locked_by_provider' } });
    expect(await statusOf(email)).toBe('DECLINED');
    expect(await counterOf(email)).toBe(2);

    const nobody = await admin('POST', '/accounts/unlock', { email: uniqueEmail('nobody') });
    expect(nobody.statusCode).toBe(404);
    expect(nobody.json()).toMatchObject({ error: { code: 'account_not_found' } });
    expect((await admin('POST', '/accounts/unlock', { email: 'not-an-address' })).statusCode).toBe(400);
    // Nothing changed, nothing audited.
    expect((await auditPage('?limit=1')).entries).toEqual([newestBefore]);
  });
});

describe('the audit log', () => {
  it('records each change with its token, action, tenant, target and outcome; lists newest first, by tenant and in pages', async () => {
    const created = await admin('POST', '/codes', { tenant: 'it2', count: 2 });
    const [code] = created.json().data.codes;
    await admin('POST', `/codes/${code.code}/revoke`, undefined, NEXT_TOKEN);
    await admin('POST', `/codes/${code.code}/revoke`);
    const { invitation } = (
      await admin('POST', '/invitations', { tenant: 'it2', email: uniqueEmail('audited') })
    ).json().data;
    await admin('POST', `/invitations/${invitation.id}/revoke`);
    // Refused calls change nothing and write nothing.
    expect((await admin('POST', '/codes/3f0e4a53-4a8e-4d2b-9c7e-0d1c2b3a4f5e/revoke')).statusCode).toBe(404);
    expect(
      (await admin('POST', '/codes', { tenant: 'it2' }, 'third-admin-token-of-the-tests')).statusCode,
    ).toBe(401);
    await admin('POST', '/codes', { tenant: 'r5' });

    const newest = await auditPage('?tenant=it2&limit=3');
    expect(newest.entries).toEqual([
      expect.objectContaining({ action: 'invitation.revoke', target: invitation.id, outcome: 'changed' }),
      expect.objectContaining({ action: 'invitation.create', target: invitation.id, outcome: 'changed' }),
      expect.objectContaining({ action: 'code.revoke', target: code.code, outcome: 'unchanged' }),
    ]);
    const older = await auditPage(`?tenant=it2&limit=3&before=${newest.next}`);
    expect(older).toEqual({
      entries: [
        expect.objectContaining({
          action: 'code.revoke',
          target: code.code,
          outcome: 'changed',
          token: fingerprintOf(NEXT_TOKEN),
        }),
        {
          id: expect.any(Number),
          at: expect.any(String),
          token: fingerprintOf(TOKEN),
          user: null,
          requestId: created.headers['x-request-id'],
          action: 'codes.create',
          tenant: 'it2',
          target: null,
          amount: 2,
          outcome: 'changed',
        },
      ],
      next: null,
    });
    expect(new Set([...newest.entries, ...older.entries].map((entry) => entry.tenant))).toEqual(
      new Set(['it2']),
    );
    expect((await auditPage('?limit=1')).entries).toEqual([expect.objectContaining({ tenant: 'r5' })]);

    expect((await admin('GET', '/audit', undefined, '')).statusCode).toBe(401);
    // A page's numbers are digits: nothing else is read as one (" " was 0, "0x10" 16).
    for (const query of ['limit=0', 'limit=%20', 'limit=1e2', 'before=0x10', 'before=-1', 'limit=1.5']) {
      expect((await admin('GET', `/audit?${query}`)).statusCode, query).toBe(400);
    }
    expect((await admin('GET', '/codes?tenant=demo&offset=%20')).statusCode).toBe(400);
  });

  it('makes no change whose audit row cannot be written: both are one transaction', async () => {
    await sql`create function refuse_audit() returns trigger language plpgsql as $$
      begin raise exception 'audit refused by the test'; end $$`.execute(server.db);
    await sql`create trigger refuse_audit before insert on admin_audit
      for each row execute function refuse_audit()`.execute(server.db);
    try {
      const codesBefore = await countCodes('it2');
      expect((await admin('POST', '/codes', { tenant: 'it2', count: 3 })).statusCode).toBe(500);
      expect(await countCodes('it2')).toBe(codesBefore);
      const email = uniqueEmail('unaudited');
      expect((await admin('POST', '/invitations', { tenant: 'it2', email })).statusCode).toBe(500);
      expect(await outboxFor(server.db, email)).toEqual([]);
    } finally {
      await sql`drop trigger refuse_audit on admin_audit`.execute(server.db);
      await sql`drop function refuse_audit()`.execute(server.db);
    }
  });
});
