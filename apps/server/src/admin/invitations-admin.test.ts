import type { AdminInvitation, AdminInvitationResend } from '@concierge/contracts';
import { writtenDate } from '@concierge/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeRow, outboxFor, postPortalCall, register, uniqueEmail } from '../test-support/account-fixtures';
import { adminApi } from '../test-support/admin-api';
import { startTestServer } from '../test-support/test-server';
import { lastValidDay } from './invitation-expiry';

// Issue 30: invitations expire, a re-send or a newer invitation voids the older one, and the invitee
// of a withdrawn or expired one asks the property manager for a new one from its page.

const TOKEN = 'admin-token-of-the-invitation-tests';
const DEMO_OFFICE = 'verwaltung@demo-immobilien.example';
const LACLEMAN_OFFICE = 'gerance@lacleman.example';
let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer({ ADMIN_API_TOKEN: TOKEN }, { provider: true });
}, 120_000);
afterAll(() => server?.close());

let address = 0;
const nextIp = () => `10.30.0.${++address}`;

const admin = adminApi(() => server.app, TOKEN);

async function invite(tenant: string, email: string): Promise<AdminInvitation> {
  const response = await admin('POST', '/invitations', { tenant, email });
  expect(response.statusCode).toBe(201);
  return response.json().data.invitation;
}

/** Registering through the invitation's link, as its page sends it. */
const registerWith = (invitation: AdminInvitation, clientid = 'property-portal-demo') =>
  register(
    server.app,
    { email: invitation.email, code: invitation.code, invite_id: invitation.id, clientid },
    { remoteAddress: nextIp() },
  );

const askAnew = (link: { invite_id: string; registrationcode: string; email: string }) =>
  postPortalCall(server.app, 'request-new-invitation', link, { remoteAddress: nextIp() });

const linkOf = (invitation: AdminInvitation) => ({
  invite_id: invitation.id,
  registrationcode: invitation.code,
  email: invitation.email,
});

const requestRows = (invitationId: string) =>
  server.db.selectFrom('invitation_requests').selectAll().where('invitation_id', '=', invitationId).execute();

const DAY_MS = 24 * 3600 * 1000;

describe('re-sending an invitation', () => {
  it('voids the old code and mails a new link that names its last day; a used one is refused, changing nothing', async () => {
    const email = uniqueEmail('resent');
    const old = await invite('demo', email);
    const response = await admin('POST', `/invitations/${old.id}/resend`);
    expect(response.statusCode).toBe(201);
    const { invitation, previous }: AdminInvitationResend = response.json().data;
    expect(invitation).toMatchObject({ tenant: 'demo', email, language: 'de', codeStatus: 'unused' });
    expect(invitation.id).not.toBe(old.id);
    expect(invitation.code).not.toBe(old.code);
    expect(previous).toMatchObject({ id: old.id, codeStatus: 'revoked', revokedAt: expect.any(String) });
    // INVITATION_VALIDITY_DAYS (30): to the end of the 30th day after today, in Zurich.
    const validFor = Date.parse(invitation.expiresAt!) - Date.parse(invitation.createdAt);
    expect(validFor).toBeGreaterThan(30 * DAY_MS);
    expect(validFor).toBeLessThanOrEqual(31 * DAY_MS);

    // The old link registers no one, and says why.
    expect((await registerWith(old)).json()).toMatchObject({ error: { code: 'invitation_withdrawn' } });
    expect((await codeRow(server.db, old.code)).status).toBe('revoked');

    const [first, second] = await outboxFor(server.db, email);
    expect(first?.text).toContain(old.registerUrl);
    expect(second?.text).toContain(invitation.registerUrl);
    const lastDay = writtenDate(lastValidDay(new Date(invitation.expiresAt!)), 'de');
    expect(second?.text).toContain(`Die Einladung ist bis und mit ${lastDay} gültig.`);
    const [audited] = (await admin('GET', '/audit?tenant=demo&limit=1')).json().data.entries;
    expect(audited).toMatchObject({ action: 'invitation.resend', target: old.id, outcome: 'changed' });

    // Registered with: nothing left to send again.
    expect((await registerWith(invitation)).statusCode).toBe(200);
    const refused = await admin('POST', `/invitations/${invitation.id}/resend`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: { code: 'invitation_already_used' } });
    expect(await outboxFor(server.db, email)).toHaveLength(3);
    const listed = (await admin('GET', '/invitations?tenant=demo&limit=1000')).json().data.invitations;
    expect(listed.filter((entry: AdminInvitation) => entry.email === email)).toHaveLength(2);
  });

  it('leaves the person one open invitation: a second one for the same e-mail voids the first', async () => {
    const email = uniqueEmail('twice');
    const first = await invite('demo', email);
    const second = await invite('demo', email);
    const listed = (await admin('GET', '/invitations?tenant=demo&limit=1000')).json().data.invitations;
    const mine = listed.filter((entry: AdminInvitation) => entry.email === email);
    expect(mine).toEqual([
      expect.objectContaining({ id: first.id, codeStatus: 'revoked', revokedAt: expect.any(String) }),
      expect.objectContaining({ id: second.id, codeStatus: 'unused', revokedAt: null }),
    ]);
    expect((await registerWith(first)).json()).toMatchObject({ error: { code: 'invitation_withdrawn' } });
    const [created, withdrawn] = (await admin('GET', '/audit?tenant=demo&limit=2')).json().data.entries;
    expect(created).toMatchObject({ action: 'invitation.create', target: second.id });
    expect(withdrawn).toMatchObject({ action: 'invitation.revoke', target: first.id });
  });
});

describe('an expired invitation', () => {
  it('is announced on arrival at its link, with the button to ask anew, refused at registration, and no longer open', async () => {
    const invitation = await invite('demo', uniqueEmail('expired'));
    const openNow = async () =>
      (await admin('GET', '/figures?tenant=demo')).json().data.tenants[0].invitationsOpen as number;
    const openBefore = await openNow();
    await server.db
      .updateTable('registration_codes')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('code', '=', invitation.code)
      .execute();
    const arrival = await server.app.inject({
      url: invitation.registerUrl.replace('http://portal.test', ''),
      headers: { accept: 'text/html', 'accept-language': 'de' },
    });
    expect(arrival.statusCode).toBe(200);
    const shown = arrival.body.slice(0, arrival.body.indexOf('id="concierge-state"'));
    expect(shown).toMatch(/role="alert"[^>]*>.*Diese Einladung ist abgelaufen\./s);
    expect(shown).toContain('Neue Einladung anfordern');

    const registration = await registerWith(invitation);
    expect(registration.statusCode).toBe(400);
    expect(registration.json()).toMatchObject({ error: { code: 'invitation_expired' } });
    expect((await codeRow(server.db, invitation.code)).status).toBe('unused');
    expect(await openNow()).toBe(openBefore - 1);
  });
});

describe('asking for a new invitation', () => {
  it('records a request from the link of a withdrawn invitation once and tells the office in its language', async () => {
    const invitation = await invite('lacleman', uniqueEmail('asks'));
    await admin('POST', `/invitations/${invitation.id}/revoke`);
    // As the page sends it: the code as the link has it (any case).
    const link = { ...linkOf(invitation), registrationcode: invitation.code.toUpperCase() };
    const answers = [await askAnew(link), await askAnew(link)];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ success: true, status: 200, data: {} });
    }
    expect(await requestRows(invitation.id)).toHaveLength(1);
    const notices = (await outboxFor(server.db, LACLEMAN_OFFICE)).filter((mail) =>
      mail.text.includes(invitation.id),
    );
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ kind: 'invitation-request' });
    expect(notices[0]?.subject).toBe(
      'Nouvelle invitation demandée\u00a0: portail des locataires Gérance du Léman SA',
    );
    expect(notices[0]?.text).toContain(`${invitation.email} a demandé une nouvelle invitation`);
    expect(notices[0]?.text).toContain(`invitations resend ${invitation.id}`);

    // Listed for the office until a new invitation answers it.
    const open = async () =>
      (await admin('GET', '/invitation-requests?tenant=lacleman')).json().data.requests as {
        invitationId: string;
      }[];
    expect((await open()).map((request) => request.invitationId)).toContain(invitation.id);
    expect((await admin('POST', `/invitations/${invitation.id}/resend`)).statusCode).toBe(201);
    expect((await open()).map((request) => request.invitationId)).not.toContain(invitation.id);
    expect((await requestRows(invitation.id))[0]?.handled_at).toBeInstanceOf(Date);
  });

  it('answers parameters that name no withdrawn or expired invitation exactly the same, and does nothing', async () => {
    const withdrawn = await invite('demo', uniqueEmail('probed'));
    await admin('POST', `/invitations/${withdrawn.id}/revoke`);
    const open = await invite('demo', uniqueEmail('open'));
    const officeMailsBefore = (await outboxFor(server.db, DEMO_OFFICE)).length;
    const probes = [
      { ...linkOf(withdrawn), email: uniqueEmail('stranger') },
      { ...linkOf(withdrawn), registrationcode: open.code },
      { ...linkOf(withdrawn), invite_id: open.id },
      linkOf(open),
      { invite_id: 'not-an-id', registrationcode: 'not-a-code', email: 'nobody' },
    ];
    for (const probe of probes) {
      const answer = await askAnew(probe);
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ success: true, status: 200, data: {} });
    }
    expect(await requestRows(withdrawn.id)).toEqual([]);
    expect(await requestRows(open.id)).toEqual([]);
    expect(await outboxFor(server.db, DEMO_OFFICE)).toHaveLength(officeMailsBefore);
    // The link itself, as sent, is recorded: the probes above were no such link.
    await askAnew(linkOf(withdrawn));
    expect(await requestRows(withdrawn.id)).toHaveLength(1);
    expect(await outboxFor(server.db, DEMO_OFFICE)).toHaveLength(officeMailsBefore + 1);
  });
});
