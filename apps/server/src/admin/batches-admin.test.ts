import { randomUUID } from 'node:crypto';
import type { AdminAuditEntry, AdminBatchCode, AdminBatchDetail, TenantFigures } from '@concierge/contracts';
import { closePdf, qrCodeOf, readPdf, textOf } from '@concierge/test-support/pdf-reader';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { recordSignInSuccess } from '../accounts/protection/sign-in-events';
import { claimRegistrationCode, releaseRegistrationCode } from '../accounts/registration-codes';
import {
  activationParams,
  codeRow,
  outboxFor,
  postPortalCall,
  register,
  uniqueEmail,
} from '../test-support/account-fixtures';
import { adminApi, countCodes as codesOf } from '../test-support/admin-api';
import { startAtAFullHour } from '../test-support/clock';
import { seedAccountProtection } from '../test-support/protection-fixtures';
import { providerUserOf } from '../test-support/provider-users';
import { startTestServer } from '../test-support/test-server';
import { parseCsv } from './csv';

// Issue 30 through the admin API, as the office meets it: a building's letters, what became of each,
// revoking them, the export for the mail merge, and the figures.

const TOKEN = 'admin-token-for-the-batch-tests';
const CODE_QUOTA = 10;
let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer(
    { ADMIN_API_TOKEN: TOKEN, ADMIN_CODES_PER_TENANT_PER_HOUR: String(CODE_QUOTA) },
    { provider: true, smtp: true },
  );
}, 120_000);
afterAll(() => server?.close());

const admin = adminApi(() => server.app, TOKEN);

async function createBatch(tenant: string, units: string[], extra: object = {}): Promise<AdminBatchDetail> {
  const response = await admin('POST', '/batches', {
    tenant,
    building: 'Seestrasse 12, Zürich',
    units: units.map((unit) => ({ unit })),
    ...extra,
  });
  expect(response.statusCode).toBe(201);
  return response.json().data;
}

async function showBatch(id: string): Promise<AdminBatchDetail> {
  const response = await admin('GET', `/batches/${id}`);
  expect(response.statusCode).toBe(200);
  return response.json().data;
}

const byUnit = (detail: AdminBatchDetail) =>
  Object.fromEntries(detail.codes.map((code) => [code.unit, code])) as Record<string, AdminBatchCode>;
const statesOf = async (id: string) =>
  Object.fromEntries((await showBatch(id)).codes.map((code) => [code.unit, code.state]));

const newestAudit = async (limit: number): Promise<AdminAuditEntry[]> =>
  (await admin('GET', `/audit?limit=${limit}`)).json().data.entries;

const countCodes = (tenant: string) => codesOf(server.db, tenant);

describe('a batch of codes for the units of a building', () => {
  it('is made with a code per unit, listed with its figures and audited; bad input changes nothing', async () => {
    const response = await admin('POST', '/batches', {
      tenant: 'r5',
      building: 'Seestrasse 12, Zürich',
      expiresAt: '2099-03-31T23:59:59+02:00',
      units: [
        { unit: 'EG links', name: 'Anna Muster', language: 'fr' },
        { unit: '1. OG rechts' },
        { unit: 'Attika', name: 'Luca Bernasconi', language: 'it' },
      ],
    });
    expect(response.statusCode).toBe(201);
    const { batch, codes } = response.json().data as AdminBatchDetail;
    expect(batch).toMatchObject({
      tenant: 'r5',
      building: 'Seestrasse 12, Zürich',
      expiresAt: '2099-03-31T21:59:59.000Z',
      revokedAt: null,
      figures: { codes: 3, unused: 3, pending: 0, used: 0, activated: 0, locked: 0, revoked: 0, expired: 0 },
    });
    // In the office's order, each with its letter's unit, name, language and link.
    expect(codes.map(({ unit, name, language, state }) => ({ unit, name, language, state }))).toEqual([
      { unit: 'EG links', name: 'Anna Muster', language: 'fr', state: 'unused' },
      { unit: '1. OG rechts', name: null, language: 'de', state: 'unused' },
      { unit: 'Attika', name: 'Luca Bernasconi', language: 'it', state: 'unused' },
    ]);
    for (const code of codes) {
      expect(code.registerUrl).toBe(`http://portal.test/register?registrationcode=${code.code}&subdomain=r5`);
      expect(code.expiresAt).toBe('2099-03-31T21:59:59.000Z');
    }

    const listed = (await admin('GET', '/batches?tenant=r5')).json().data;
    expect(listed).toEqual({ batches: [batch], total: 1 });
    expect((await newestAudit(1))[0]).toMatchObject({
      action: 'batch.create',
      tenant: 'r5',
      target: batch.id,
      amount: 3,
      outcome: 'changed',
    });

    const before = await countCodes('r5');
    const refusals: [object, string][] = [
      [{ units: [{ unit: 'A' }, { unit: 'A' }] }, 'units.1.unit'],
      [{ units: [] }, 'units'],
      [{ units: Array.from({ length: 2001 }, (_, index) => ({ unit: `W${index}` })) }, 'units'],
      [{ units: [{ unit: 'x'.repeat(41) }] }, 'units.0.unit'],
      [{ units: [{ unit: 'A', language: 'es' }] }, 'units.0.language'],
      [{ units: [{ unit: 'A', name: 'n'.repeat(201) }] }, 'units.0.name'],
      [{ units: [{ unit: 'A' }], building: '' }, 'building'],
      [{ units: [{ unit: 'A' }], expiresAt: '2020-01-01T00:00:00Z' }, 'expiresAt'],
      [{ units: [{ unit: 'A' }], expiresAt: '2099-12-31' }, 'expiresAt'],
    ];
    for (const [body, field] of refusals) {
      const refused = await admin('POST', '/batches', { tenant: 'r5', building: 'Haus', ...body });
      expect(refused.json(), field).toMatchObject({
        status: 400,
        error: { code: 'invalid_request', error: `Invalid or missing: ${field}` },
      });
    }
    const unknownTenant = await admin('POST', '/batches', {
      tenant: 'nobody',
      building: 'H',
      units: [{ unit: 'A' }],
    });
    expect(unknownTenant.json()).toMatchObject({ status: 400, error: { code: 'unknown_tenant' } });
    expect(await countCodes('r5')).toBe(before);
    expect((await admin('GET', `/batches/${randomUUID()}`)).json()).toMatchObject({
      status: 404,
      error: { code: 'batch_not_found' },
    });
    expect((await admin('GET', '/batches/not-a-batch')).statusCode).toBe(400);
  });

  it('shows each code as used with its e-mail, activated, locked or unused, from Concierge’s own records', async () => {
    const { batch } = await createBatch('alpenblick', ['Wohnung 1', 'Wohnung 2', 'Wohnung 3', 'Wohnung 4']);
    const codes = byUnit(await showBatch(batch.id));
    const registerUnit = async (unit: string) => {
      const email = uniqueEmail(unit.replace(' ', '').toLowerCase());
      const response = await register(server.app, {
        email,
        code: codes[unit]!.code,
        clientid: 'property-portal-alpenblick',
      });
      expect(response.statusCode).toBe(200);
      return email;
    };
    const [first, second, third] = [
      await registerUnit('Wohnung 1'),
      await registerUnit('Wohnung 2'),
      await registerUnit('Wohnung 3'),
    ];
    const registered = byUnit(await showBatch(batch.id));
    expect(registered['Wohnung 1']).toMatchObject({ state: 'used', status: 'used', claimedEmail: first });
    expect(registered['Wohnung 4']).toMatchObject({ state: 'unused', claimedEmail: null });

    // Wohnung 1: the tenant opens the activation link of the e-mail.
    await server.app.backgroundJobs.outbox.runOnce();
    const mail = await server.mailSink!.waitFor(first);
    const activated = await postPortalCall(server.app, 'activate-user-account', activationParams(mail.text));
    expect(activated.json()).toMatchObject({ success: true, data: { isAlreadyActivated: false } });
    // Wohnung 2: the office's unlock clears the count but activates nothing; a sign-in does.
    expect((await admin('POST', '/accounts/unlock', { email: second })).statusCode).toBe(200);
    expect((await statesOf(batch.id))['Wohnung 2']).toBe('used');
    await recordSignInSuccess(server.db, { key: randomUUID(), email: second, at: new Date() });
    // Wohnung 3: three wrong passwords, and Concierge's lock.
    await seedAccountProtection(server.db, third, { failures: 3, lock: 'locked' });

    expect(await statesOf(batch.id)).toEqual({
      'Wohnung 1': 'activated',
      'Wohnung 2': 'activated',
      'Wohnung 3': 'locked',
      'Wohnung 4': 'unused',
    });
    const figures = {
      codes: 4,
      unused: 1,
      pending: 0,
      used: 3,
      activated: 2,
      locked: 1,
      revoked: 0,
      expired: 0,
    };
    expect((await showBatch(batch.id)).batch.figures).toEqual(figures);
    expect((await admin('GET', '/batches?tenant=alpenblick')).json().data.batches[0].figures).toEqual(
      figures,
    );

    // The tenant's figures: every code of it, its open invitations, its accounts locked now.
    await admin('POST', '/codes', { tenant: 'alpenblick', count: 1 });
    await admin('POST', '/invitations', { tenant: 'alpenblick', email: uniqueEmail('invited') });
    const tenant: TenantFigures = (await admin('GET', '/figures?tenant=alpenblick')).json().data.tenants[0];
    expect(tenant).toEqual({ tenant: 'alpenblick', ...figures, codes: 6, unused: 3, invitationsOpen: 1 });
    const everyTenant = (await admin('GET', '/figures')).json().data.tenants as TenantFigures[];
    expect(everyTenant.map((entry) => entry.tenant)).toEqual(['demo', 'it2', 'r5', 'alpenblick', 'lacleman']);
    expect((await admin('GET', '/figures?tenant=nobody')).json()).toMatchObject({
      status: 400,
      error: { code: 'unknown_tenant' },
    });
  });

  it('refuses an expired code at registration with registration_code_expired and changes nothing', async () => {
    const { batch, codes } = await createBatch('it2', ['A', 'B'], { expiresAt: '2099-01-01T00:00:00Z' });
    const [expired, valid] = codes as [AdminBatchCode, AdminBatchCode];
    // Time has passed for the first one.
    await server.db
      .updateTable('registration_codes')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('code', '=', expired.code)
      .execute();
    const email = uniqueEmail('late');
    const refused = await register(server.app, {
      email,
      code: expired.code,
      clientid: 'property-portal-it2',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ success: false, error: { code: 'registration_code_expired' } });
    expect(await codeRow(server.db, expired.code)).toMatchObject({ status: 'unused', claimed_email: null });
    expect(await outboxFor(server.db, email)).toEqual([]);
    expect(await providerUserOf(server.provider, email)).toBeNull();
    // The claim itself refuses it: a check made a moment before the expiry cannot let it through.
    const claim = await claimRegistrationCode(server.db, {
      code: expired.code,
      tenant: 'it2',
      email,
      language: 'de',
      at: new Date(),
    });
    expect(claim).toBe('not_unused');
    expect(await statesOf(batch.id)).toEqual({ A: 'expired', B: 'unused' });
    expect((await showBatch(batch.id)).batch.figures).toMatchObject({ unused: 1, expired: 1 });
    // The letter's link shows the form as for any code, the refusal comes with the submit.
    const page = await server.app.inject({
      url: `/register?subdomain=it2&registrationcode=${expired.code}`,
      headers: { accept: 'text/html', 'accept-language': 'de' },
    });
    expect(page.statusCode).toBe(200);
    const shown = page.body.slice(0, page.body.indexOf('id="concierge-state"'));
    expect(shown).toMatch(new RegExp(`<input[^>]+value="${expired.code}"`));
    expect(shown).not.toContain('role="alert"');

    // The batch's other letter still registers, with the same e-mail: nothing was held for it.
    const registered = await register(server.app, {
      email,
      code: valid.code,
      clientid: 'property-portal-it2',
    });
    expect(registered.statusCode).toBe(200);
  });

  it('revokes a selection all or none, and a batch’s unused codes once', async () => {
    const { batch, codes } = await createBatch('lacleman', ['1', '2', '3']);
    const [one, two, three] = codes as [AdminBatchCode, AdminBatchCode, AdminBatchCode];
    const email = uniqueEmail('registered');
    await register(server.app, { email, code: two.code, clientid: 'property-portal-lacleman' });

    const conflict = await admin('POST', '/codes/revoke', { codes: [one.code, two.code] });
    expect(conflict.json()).toMatchObject({
      status: 409,
      error: { code: 'code_not_revocable', error: expect.stringContaining(`${two.code} (used)`) },
    });
    const unknown = randomUUID();
    const missing = await admin('POST', '/codes/revoke', { codes: [one.code, unknown] });
    expect(missing.json()).toMatchObject({
      status: 404,
      error: { code: 'code_not_found', error: expect.stringContaining(unknown) },
    });
    expect(await statesOf(batch.id)).toEqual({ 1: 'unused', 2: 'used', 3: 'unused' });

    const selected = await admin('POST', '/codes/revoke', { codes: [one.code, one.code.toUpperCase()] });
    expect(selected.json().data).toMatchObject({
      revoked: 1,
      codes: [{ code: one.code, status: 'revoked' }],
    });
    expect((await newestAudit(1))[0]).toMatchObject({
      action: 'codes.revoke',
      tenant: 'lacleman',
      target: null,
      amount: 1,
      outcome: 'changed',
    });

    const revoked = await admin('POST', `/batches/${batch.id}/revoke`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().data).toMatchObject({
      revoked: 1,
      batch: { revokedAt: expect.any(String), figures: { used: 1, revoked: 2, unused: 0 } },
    });
    expect(await statesOf(batch.id)).toEqual({ 1: 'revoked', 2: 'used', 3: 'revoked' });
    const refused = await register(server.app, {
      email: uniqueEmail(),
      code: three.code,
      clientid: 'property-portal-lacleman',
    });
    expect(refused.json()).toMatchObject({ error: { code: 'registrationCodeInvalid' } });

    const again = await admin('POST', `/batches/${batch.id}/revoke`);
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toMatchObject({
      revoked: 0,
      batch: { revokedAt: revoked.json().data.batch.revokedAt },
    });
    expect(
      (await newestAudit(2)).map(({ action, target, amount, outcome }) => ({
        action,
        target,
        amount,
        outcome,
      })),
    ).toEqual([
      { action: 'batch.revoke', target: batch.id, amount: 0, outcome: 'unchanged' },
      { action: 'batch.revoke', target: batch.id, amount: 1, outcome: 'changed' },
    ]);
    expect((await admin('POST', `/batches/${randomUUID()}/revoke`)).statusCode).toBe(404);
    expect((await admin('POST', '/codes/revoke', { codes: [] })).statusCode).toBe(400);
  });

  it('revokes a code that was being registered when its batch was revoked, once that registration fails', async () => {
    const { batch, codes } = await createBatch('lacleman', ['1']);
    const [code] = codes as [AdminBatchCode];
    const email = uniqueEmail('pending');
    const claim = { code: code.code, tenant: 'lacleman', email, language: 'fr', at: new Date() };
    expect(await claimRegistrationCode(server.db, claim)).toBe('claimed');
    await admin('POST', `/batches/${batch.id}/revoke`);
    expect(await statesOf(batch.id)).toEqual({ 1: 'pending' });
    // The provider definitely made no account: the claim is let go, into the revocation.
    expect(await releaseRegistrationCode(server.db, { code: code.code, email, claimedAt: claim.at })).toBe(
      true,
    );
    expect(await statesOf(batch.id)).toEqual({ 1: 'revoked' });
  });

  it('exports a batch as CSV for the mail merge, which reads back as the batch shows it, formulas as text', async () => {
    const response = await admin('POST', '/batches', {
      tenant: 'demo',
      building: 'Rue du Lac 3',
      units: [
        { unit: 'App. 2, côté lac', name: 'Müller-Weber, "Anni"', language: 'fr' },
        { unit: 'App. 1', name: 'Zoé Rochat' },
        { unit: '-1', name: '+41 44 123 45 67' },
      ],
    });
    const { batch } = response.json().data as AdminBatchDetail;
    // An address the spec's pattern accepts, and a formula to a spreadsheet.
    const email = `=1+${uniqueEmail('merged')}`;
    const shown = await showBatch(batch.id);
    await register(server.app, { email, code: byUnit(shown)['App. 1']!.code });

    const exported = await admin('GET', `/batches/${batch.id}/export`);
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(exported.headers['content-disposition']).toBe(`attachment; filename="codes-${batch.id}.csv"`);
    expect(exported.headers['cache-control']).toBe('no-store');
    const [header, ...rows] = parseCsv(exported.body).map((record) => record.fields);
    expect(header).toEqual(['unit', 'name', 'language', 'code', 'register_url', 'state', 'email']);
    expect(rows).toEqual(
      (await showBatch(batch.id)).codes.map((code) => [
        code.unit,
        code.name?.startsWith('+') ? `'${code.name}` : (code.name ?? ''),
        code.language,
        code.code,
        code.registerUrl,
        code.state,
        code.claimedEmail === email ? `'${email}` : (code.claimedEmail ?? ''),
      ]),
    );
    expect(rows).toContainEqual(expect.arrayContaining(['App. 1', 'used', `'${email}`]));
    expect(rows).toContainEqual(expect.arrayContaining(['-1', "'+41 44 123 45 67"]));
    expect(rows).toContainEqual(expect.arrayContaining(['App. 2, côté lac', 'Müller-Weber, "Anni"']));
    expect((await admin('GET', `/batches/${randomUUID()}/export`)).statusCode).toBe(404);
  });

  it('prints the letters of the unused codes as a PDF, a page each, and none once no code is unused', async () => {
    const { batch, codes } = await createBatch('demo', ['3', '1', '2']);
    const [three, one, two] = codes as [AdminBatchCode, AdminBatchCode, AdminBatchCode];
    await register(server.app, { email: uniqueEmail('lettered'), code: two.code });

    const response = await admin('GET', `/batches/${batch.id}/letters`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['cache-control']).toBe('no-store');
    const pdf = await readPdf(response.rawPayload);
    onTestFinished(() => closePdf(pdf));
    // In the order of the units, the registered one left out.
    expect(pdf.numPages).toBe(2);
    expect(await textOf(pdf, 1)).toContain(one.code);
    expect(await qrCodeOf(pdf, 2)).toBe(three.registerUrl);

    await admin('POST', `/batches/${batch.id}/revoke`);
    expect((await admin('GET', `/batches/${batch.id}/letters`)).json()).toMatchObject({
      status: 409,
      error: { code: 'no_unused_codes' },
    });
  });

  it('counts against the hourly quota of codes, with codes made by count, and makes nothing beyond it', async () => {
    startAtAFullHour();
    expect((await admin('POST', '/codes', { tenant: 'demo', count: 4 })).statusCode).toBe(201);
    const before = await countCodes('demo');
    const units = (count: number) => Array.from({ length: count }, (_, index) => `Einheit ${index + 1}`);
    const beyond = await admin('POST', '/batches', {
      tenant: 'demo',
      building: 'Quotenweg 1',
      units: units(CODE_QUOTA - 3).map((unit) => ({ unit })),
    });
    expect(beyond.statusCode).toBe(429);
    expect(beyond.json().error.error).toContain(`${CODE_QUOTA - 4} left, ${CODE_QUOTA - 3} asked for`);
    expect(await countCodes('demo')).toBe(before);
    const batches = await server.db
      .selectFrom('code_batches')
      .select('id')
      .where('building', '=', 'Quotenweg 1')
      .execute();
    expect(batches).toEqual([]);
    await createBatch('demo', units(CODE_QUOTA - 4));
  });
});
