import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SharedProvider, sharedProvider } from '../../test-support/shared-provider';
import { signInAtProvider } from '../../test-support/sign-in-tokens';
import { startTestServer } from '../../test-support/test-server';

// The console end to end on the server: signed in through the real embedded provider over HTTP (its
// demo operator and the demo tenant's property manager, apps/provider/src/users/users.ts), then its
// pages and forms as a browser without JavaScript uses them.

const MANAGER = { email: 'verwaltung@concierge.test', password: 'Verwaltung-Passw0rd!' };
const OPERATOR = { email: 'operator@concierge.test', password: 'Operator-Passw0rd!' };
const TENANT_ONLY = { email: 'demo@concierge.test', password: 'Demo-Passw0rd!' };

let provider: SharedProvider;
let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  provider = await sharedProvider();
  server = await startTestServer({}, { provider: true, brandSync: true });
}, 120_000);

afterAll(async () => {
  await server?.close();
});

interface Browser {
  cookie: string;
  csrf: string;
  get(path: string): Promise<{ status: number; body: string; location?: string }>;
  post(
    path: string,
    fields: Record<string, string | string[] | Blob>,
    options?: { csrf?: string | null },
  ): Promise<{ status: number; body: string; location?: string }>;
}

/** Signs in at the console as a browser does: to the provider, its login, and back to the callback. */
async function signIn(
  credentials: { email: string; password: string },
  options: { returnInAnotherBrowser?: boolean } = {},
): Promise<{ status: number; body: string; browser: Browser | null }> {
  const start = await server.app.inject({ method: 'GET', url: '/console/sign-in?lang=de' });
  expect(start.statusCode).toBe(302);
  const started = cookieSet(start.headers['set-cookie'], 'concierge-console-sign-in');
  const callback = await signInAtProvider(provider.url, start.headers.location as string, credentials);
  expect(`${callback.origin}${callback.pathname}`).toBe('http://portal.test/console/callback');
  const back = await server.app.inject({
    method: 'GET',
    url: `${callback.pathname}${callback.search}`,
    headers: options.returnInAnotherBrowser ? {} : { cookie: started! },
  });
  const cookie = cookieSet(back.headers['set-cookie'], 'concierge-console');
  if (back.statusCode !== 303 || !cookie) return { status: back.statusCode, body: back.body, browser: null };
  const home = await server.app.inject({ method: 'GET', url: '/console', headers: { cookie } });
  const csrf = /name="_csrf" value="([^"]+)"/.exec(home.body)?.[1];
  if (!csrf) throw new Error('the console home page carries no form token');
  const answer = (response: { statusCode: number; body: string; headers: Record<string, unknown> }) => ({
    status: response.statusCode,
    body: response.body,
    location: response.headers.location as string | undefined,
  });
  const browser: Browser = {
    cookie,
    csrf,
    get: async (url) => answer(await server.app.inject({ method: 'GET', url, headers: { cookie } })),
    post: async (url, fields, options = {}) => {
      const form = new FormData();
      const token = options.csrf === undefined ? csrf : options.csrf;
      if (token !== null) form.append('_csrf', token);
      for (const [name, value] of Object.entries(fields)) {
        for (const each of [value].flat()) form.append(name, each);
      }
      const encoded = new Request('http://portal.test', { method: 'POST', body: form });
      return answer(
        await server.app.inject({
          method: 'POST',
          url,
          headers: { cookie, 'content-type': encoded.headers.get('content-type')! },
          payload: Buffer.from(await encoded.arrayBuffer()),
        }),
      );
    },
  };
  return { status: back.statusCode, body: back.body, browser };
}

describe('the console', () => {
  it('opens to a property manager for their tenant alone, and a batch made there is theirs and audited', async () => {
    const { browser } = await signIn(MANAGER);
    expect(browser).not.toBeNull();
    const manager = browser!;

    const home = await manager.get('/console');
    expect(home.status).toBe(200);
    expect(home.body).toContain('/console/t/demo');
    expect(home.body).not.toContain('/console/t/r5');
    expect((await manager.get('/console/t/r5')).status).toBe(403);

    // Without the form token nothing is made.
    const units = '1.01;Anna Muster;de\n1.02;Jean Dupont;fr\n2.01';
    const forged = await manager.post(
      '/console/t/demo/batches',
      { building: 'Seestrasse 12, Zürich', units },
      { csrf: null },
    );
    expect(forged.status).toBe(403);
    expect(await batchesOf('demo')).toBe(0);

    const made = await manager.post('/console/t/demo/batches', {
      building: 'Seestrasse 12, Zürich',
      expiresOn: '2099-03-31',
      units,
    });
    expect(made.status).toBe(303);
    const batchPath = made.location!;
    expect(batchPath).toMatch(/^\/console\/t\/demo\/batches\/[0-9a-f-]{36}$/);
    const batch = await manager.get(batchPath);
    expect(batch.status).toBe(200);
    for (const unit of ['1.01', '1.02', '2.01', 'Anna Muster', 'Jean Dupont'])
      expect(batch.body).toContain(unit);

    // Nor another tenant's: the console refuses r5's pages, and so does the admin API with this session.
    expect((await manager.get(batchPath.replace('/t/demo/', '/t/r5/'))).status).toBe(403);
    const api = (url: string) =>
      server.app.inject({ method: 'GET', url: `/api/admin${url}`, headers: { cookie: manager.cookie } });
    expect((await api('/batches?tenant=r5')).statusCode).toBe(403);
    expect((await api('/figures')).json().data.tenants.map((row: { tenant: string }) => row.tenant)).toEqual([
      'demo',
    ]);
    const batchId = batchPath.split('/').at(-1);
    expect((await api(`/batches/${batchId}`)).statusCode).toBe(200);
    // A change through the API needs the session's form token beside the cookie.
    const revoke = (headers: Record<string, string>) =>
      server.app.inject({
        method: 'POST',
        url: `/api/admin/batches/${batchId}/revoke`,
        headers: { cookie: manager.cookie, 'content-type': 'application/json', ...headers },
        payload: '{}',
      });
    expect((await revoke({})).statusCode).toBe(401);
    const revoked = await revoke({ 'x-console-csrf': manager.csrf });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().data.revoked).toBe(3);

    const audit = await server.db
      .selectFrom('admin_audit')
      .select(['action', 'tenant', 'user_email', 'token_fingerprint', 'amount'])
      .where('action', '=', 'batch.create')
      .execute();
    expect(audit).toEqual([
      {
        action: 'batch.create',
        tenant: 'demo',
        user_email: MANAGER.email,
        token_fingerprint: null,
        amount: 3,
      },
    ]);
  });

  it('shows a bad units list again, filled in, and refuses a control character in a field', async () => {
    const { browser } = await signIn(MANAGER);
    const before = await batchesOf('demo');
    const refused = await browser!.post('/console/t/demo/batches', {
      building: 'Bahnhofweg 3',
      units: '1;Eva;de\n2;Paul;es',
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('Bahnhofweg 3');
    // A control character in a form sent as multipart is refused as in any other request: 400, not
    // PostgreSQL's refusal as a 500. Line breaks belong in the list of units, not in the building.
    const nul = await browser!.post('/console/t/demo/batches', { building: 'Bahnhofweg\u00003', units: '1' });
    expect(nul.status).toBe(400);
    expect(await batchesOf('demo')).toBe(before);
  });

  it('opens every tenant to an operator, and none to an account without a console role', async () => {
    const { browser } = await signIn(OPERATOR);
    const home = await browser!.get('/console');
    for (const tenant of ['demo', 'it2', 'r5', 'alpenblick', 'lacleman']) {
      expect(home.body).toContain(`/console/t/${tenant}`);
    }
    expect((await browser!.get('/console/t/r5')).status).toBe(200);

    // Signing out ends the session here and sends the browser to the provider's sign-out, which
    // returns to the console: an office's shared computer keeps no session at either.
    const out = await browser!.post('/console/sign-out', {});
    expect(out.status).toBe(303);
    const end = new URL(out.location!);
    expect(`${end.origin}${end.pathname}`).toBe(`${provider.url}/session/end_session`);
    expect(end.searchParams.get('post_logout_redirect_uri')).toBe('http://portal.test/console/signed-out');
    expect(end.searchParams.get('id_token_hint')).toBeTruthy();
    expect((await browser!.get('/console/t/r5')).status).toBe(401);

    const refused = await signIn(TENANT_ONLY);
    expect(refused.browser).toBeNull();
    expect(refused.status).toBe(403);
  });

  it("saves a brand draft that only the console's preview shows, and publishes it to the tenant's pages", async () => {
    const { browser } = await signIn(MANAGER);
    const manager = browser!;
    const draft = {
      displayName: 'Demo Immobilien AG',
      primaryColor: '#7b2d8e',
      themePreset: 'default',
      stylesheet: '',
      contactName: 'Demo Immobilien AG',
      contactEmail: 'verwaltung@demo-immobilien.example',
      registrationEnabled: 'on',
      inviteEnabled: 'on',
    };
    const saved = await manager.post('/console/t/demo/brand', draft);
    expect(saved.status).toBe(303);
    const editor = await manager.get('/console/t/demo/brand');
    const previewUrl = /src="(\/login\?subdomain=demo&amp;brandPreview=\d+)"/.exec(editor.body)?.[1];
    expect(previewUrl).toBeDefined();
    const preview = (await manager.get(previewUrl!.replaceAll('&amp;', '&'))).body;
    expect(preview.toLowerCase()).toContain('#7b2d8e');
    const tenantsLogin = async () =>
      (await server.app.inject({ method: 'GET', url: '/login?subdomain=demo' })).body.toLowerCase();
    expect(await tenantsLogin()).not.toContain('#7b2d8e');
    // Nor does the preview's address show the draft to anyone without the session.
    const stranger = await server.app.inject({ method: 'GET', url: previewUrl!.replaceAll('&amp;', '&') });
    expect(stranger.body.toLowerCase()).not.toContain('#7b2d8e');

    const revision = /name="revision" value="(\d+)"/.exec(editor.body)?.[1];
    expect((await manager.post('/console/t/demo/brand/publish', { revision: revision! })).status).toBe(303);
    // This instance hears of its own publish as any other does (NOTIFY, or the periodic check).
    const deadline = Date.now() + 10_000;
    while (!(await tenantsLogin()).includes('#7b2d8e') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await tenantsLogin()).toContain('#7b2d8e');
  });

  it('ends a session left idle, and refuses a return that no sign-in of this browser is waiting for', async () => {
    const { browser } = await signIn(MANAGER);
    await server.db
      .updateTable('console_sessions')
      .set({ last_seen_at: new Date(Date.now() - 31 * 60_000) })
      .execute();
    const after = await browser!.get('/console/t/demo');
    expect(after.status).toBe(401);
    expect(after.body).toContain('/console/sign-in');

    const stray = await server.app.inject({
      method: 'GET',
      url: '/console/callback?code=abc&state=never-sent',
    });
    expect(stray.statusCode).toBe(400);
    expect(cookieSet(stray.headers['set-cookie'], 'concierge-console')).toBeUndefined();
    // A return someone else started (and sent on as a link) signs nobody in here: login CSRF.
    const forwarded = await signIn(MANAGER, { returnInAnotherBrowser: true });
    expect(forwarded.status).toBe(400);
    expect(forwarded.browser).toBeNull();
  });
});

/** `name=value` of the cookie an answer sets (not one it clears), for the next request's header. */
function cookieSet(header: string | string[] | undefined, name: string): string | undefined {
  const line = [header ?? []]
    .flat()
    .find((each) => each.startsWith(`${name}=`) && !each.startsWith(`${name}=;`));
  return line?.split(';')[0];
}

async function batchesOf(tenant: string): Promise<number> {
  const rows = await server.db.selectFrom('code_batches').select('id').where('tenant', '=', tenant).execute();
  return rows.length;
}
