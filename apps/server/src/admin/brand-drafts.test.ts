import {
  createThrowAwayDatabase,
  databaseLocationFromEnv,
  type Kysely,
  openDatabase,
} from '@concierge/database';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../app';
import { loadConfig } from '../config';
import { migrations, SERVER_SCHEMA } from '../db/migrations';
import type { ServerTables } from '../db/schema';
import { createMailTransport } from '../mail/mail-transport';
import { ProviderClient } from '../provider-client/provider-client';
import { loadPortalBuild } from '../ssr/portal-bundle';
import { type BrandDraftInput, BrandInputError } from '../tenants/brand-input';
import { type BrandPreviewCheck, PREVIEW_PAGES } from '../tenants/brand-preview';
import { draftOf } from '../tenants/brand-store';
import { type BrandSync, startBrandSync } from '../tenants/brand-sync';
import { loadTenantRegistry } from '../tenants/load-registry';
import { TEST_ADMIN_CLIENT } from '../test-support/embedded-provider';
import { sharedProvider } from '../test-support/shared-provider';
import type { AdminActor } from './admin-auth';
import { brandEditor, discardBrandDraft, publishBrandDraft, saveBrandDraft } from './brand-drafts';

// Issue 30: a tenant's brand edited as a draft by the console, published to every instance without
// a restart. Two (and three) instances of the real server on one real database.

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const actor: AdminActor = {
  tokenFingerprint: null,
  user: { sub: 'manager-1', email: 'office@demo.example' },
  tenants: 'all',
  requestId: 'brand-test',
};
const draft = (changes: Partial<BrandDraftInput> = {}): BrandDraftInput => ({
  displayName: 'Demo Immobilien AG',
  primaryColor: '#1864ab',
  themePreset: 'default',
  stylesheet: '',
  contact: { name: 'Demo Immobilien AG', phone: '', email: 'verwaltung@demo-immobilien.example' },
  flags: {
    hideRegisterLoginLink: false,
    skipFreshRequestIdRedirect: false,
    useSpecialLogo: false,
    registrationEnabled: true,
    inviteEnabled: true,
  },
  savedBy: 'office@demo.example',
  ...changes,
});

type TestServer = Awaited<ReturnType<typeof startInstance>>;
let database: { db: Kysely<ServerTables>; url: string; schema: string; close(): Promise<void> };
let a: TestServer;
let b: TestServer;
let syncB: BrandSync;

beforeAll(async () => {
  const throwAway = await createThrowAwayDatabase(databaseLocationFromEnv().url, 'test');
  const opened = await openDatabase<ServerTables>({
    location: { kind: 'postgres', url: throwAway.url },
    schema: SERVER_SCHEMA,
    migrations,
  });
  database = {
    db: opened.db,
    url: throwAway.url,
    schema: opened.schema,
    close: async () => {
      await opened.close();
      await throwAway.drop();
    },
  };
  [a, b] = await Promise.all([startInstance(database.db), startInstance(database.db)]);
  // Instance B as main.ts starts it, with the periodic check out of the way: what reaches B here
  // comes by the notification of the publish.
  syncB = await startBrandSync({
    db: database.db,
    registry: b.registry,
    databaseUrl: database.url,
    schema: database.schema,
    log: b.app.log,
    pollMs: 600_000,
  });
}, 120_000);
afterAll(async () => {
  await syncB?.stop();
  await Promise.all([a?.app.close(), b?.app.close()]);
  await database?.close();
});

const page = (server: { app: FastifyInstance }, url: string, headers: Record<string, string> = {}) =>
  server.app.inject({ url, headers: { accept: 'text/html', ...headers } });
const colourOf = (html: string) => /"primaryColor":"(#[0-9a-f]{6})"/.exec(html)?.[1];

async function until<T>(what: () => Promise<T | undefined>, deadlineMs: number): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await what();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not within ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a fresh database', () => {
  it("shows the file's brand, and the console sees it as the published one with no draft", async () => {
    const html = (await page(b, '/login?subdomain=demo')).body;
    expect(colourOf(html)).toBe('#1864ab');
    expect(html).toContain('src="/logo/brand.jpg?subdomain=demo"');
    const editor = await brandEditor(database.db, a.registry, 'demo');
    expect(editor.published).toMatchObject({
      displayName: 'Demo Immobilien AG',
      primaryColor: '#1864ab',
      logoUrl: '/logo/brand.jpg?subdomain=demo',
    });
    expect(editor.published.stylesheet).toContain('{');
    expect(editor).toMatchObject({ draft: null, draftRevision: null, contrastProblems: [] });
    expect(editor.previewUrls.map((preview) => preview.url)).toContain(
      '/login?subdomain=demo&brandPreview=0',
    );
  });

  it('offers a preview of every page of the portal', async () => {
    const build = await loadPortalBuild(a.config.portalDistDir);
    expect([...PREVIEW_PAGES].sort()).toEqual(build.bundle.routes.map((route) => route.path).sort());
  });
});

describe('publishing', () => {
  it("keeps a draft from tenants, and puts what A publishes on B's /login within seconds", async () => {
    // B keeps the page it rendered (ssr/page-templates.ts): the publish must not be hidden by it.
    expect(colourOf((await page(b, '/login?subdomain=demo')).body)).toBe('#1864ab');
    const { revision } = await saveBrandDraft(
      database.db,
      a.registry,
      'demo',
      draft({
        primaryColor: '#c2255c',
        displayName: 'Demo Wohnen AG',
        logo: { bytes: PNG, mediaType: 'image/png' },
      }),
      actor,
    );
    // A draft is nobody's brand yet: not on A, not on B, not with a preview parameter and no session.
    for (const server of [a, b]) {
      expect(colourOf((await page(server, '/login?subdomain=demo')).body)).toBe('#1864ab');
      const asked = await page(server, `/login?subdomain=demo&brandPreview=${revision}`);
      expect(colourOf(asked.body)).toBe('#1864ab');
      expect(asked.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    }

    const publishedAt = Date.now();
    await publishBrandDraft(database.db, 'demo', revision, actor);
    const html = await until(async () => {
      const body = (await page(b, '/login?subdomain=demo')).body;
      return colourOf(body) === '#c2255c' ? body : undefined;
    }, 5000);
    const tookMs = Date.now() - publishedAt;
    expect(tookMs).toBeLessThan(2500);
    expect(html).toContain('Demo Wohnen AG');

    // The new logo from the database, at a URL of its own, so that no browser shows the old one.
    const logoUrl = /src="(\/logo\/brand\.jpg\?subdomain=demo&amp;v=[0-9a-f]{16})"/.exec(html)?.[1];
    expect(logoUrl).toBeDefined();
    const logo = await b.app.inject({ url: logoUrl!.replaceAll('&amp;', '&') });
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.rawPayload.equals(PNG)).toBe(true);
    expect(logo.headers['cache-control']).toBe('public, max-age=3600');
    // The file's stylesheet is not the published brand's (it has none).
    expect(html).not.toContain('/css/brand.css?subdomain=demo');

    const audit = await database.db
      .selectFrom('admin_audit')
      .select(['action', 'tenant', 'target', 'user_email', 'outcome'])
      .where('tenant', '=', 'demo')
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      {
        action: 'brand.save_draft',
        tenant: 'demo',
        target: String(revision),
        user_email: 'office@demo.example',
        outcome: 'changed',
      },
      {
        action: 'brand.publish',
        tenant: 'demo',
        target: String(revision),
        user_email: 'office@demo.example',
        outcome: 'changed',
      },
    ]);
    const editor = await brandEditor(database.db, b.registry, 'demo');
    expect(editor.published.primaryColor).toBe('#c2255c');
    expect(editor.draft).toBeNull();
  });

  it('reaches an instance whose listener cannot connect, by the periodic check', async () => {
    const registry = await loadTenantRegistry(a.config.tenantsFile, { portalUrl: a.config.portalUrl });
    const sync = await startBrandSync({
      db: database.db,
      registry,
      // Nothing listens there: every notification is lost.
      databaseUrl: 'postgres://127.0.0.1:9/nothing',
      schema: database.schema,
      log: a.app.log.child({}, { level: 'silent' }),
      pollMs: 200,
    });
    try {
      const { revision } = await saveBrandDraft(
        database.db,
        a.registry,
        'it2',
        draft({ displayName: 'IT2 Liegenschaften', primaryColor: '#2f9e44' }),
        actor,
      );
      await publishBrandDraft(database.db, 'it2', revision, actor);
      await until(
        async () => (registry.bySubdomain('it2')?.brand.primaryColor === '#2f9e44' ? true : undefined),
        3000,
      );
    } finally {
      await sync.stop();
    }
  });

  it('refuses to publish a draft changed since it was shown, and changes nothing', async () => {
    const first = await saveBrandDraft(
      database.db,
      a.registry,
      'r5',
      draft({ displayName: 'R5 Immobilien', primaryColor: '#862e9c' }),
      actor,
    );
    const second = await saveBrandDraft(
      database.db,
      a.registry,
      'r5',
      draft({ displayName: 'R5 Immobilien', primaryColor: '#e8590c' }),
      actor,
    );
    expect(second.revision).toBe(first.revision + 1);
    await expect(publishBrandDraft(database.db, 'r5', first.revision, actor)).rejects.toMatchObject({
      status: 409,
      code: 'brand_draft_changed',
    });
    expect((await draftOf(database.db, 'r5'))?.primaryColor).toBe('#e8590c');
    const published = await database.db
      .selectFrom('tenant_brands')
      .select('revision')
      .where('tenant', '=', 'r5')
      .where('state', '=', 'published')
      .execute();
    expect(published).toEqual([]);
    const publishes = await database.db
      .selectFrom('admin_audit')
      .select('id')
      .where('tenant', '=', 'r5')
      .where('action', '=', 'brand.publish')
      .execute();
    expect(publishes).toEqual([]);
    expect(colourOf((await page(b, '/login?subdomain=r5')).body)).toBe('#a61e4d');

    expect(await discardBrandDraft(database.db, 'r5', actor)).toEqual({ discarded: true });
    await expect(publishBrandDraft(database.db, 'r5', second.revision, actor)).rejects.toMatchObject({
      status: 404,
      code: 'no_brand_draft',
    });
    expect(await discardBrandDraft(database.db, 'r5', actor)).toEqual({ discarded: false });
    // A draft saved after the discard is a new revision: a publish of the number shown before names
    // nothing (a reused number would publish content nobody previewed).
    const third = await saveBrandDraft(
      database.db,
      a.registry,
      'r5',
      draft({ displayName: 'R5 Immobilien', primaryColor: '#2f9e44' }),
      actor,
    );
    expect(third.revision).toBeGreaterThan(second.revision);
    await expect(publishBrandDraft(database.db, 'r5', second.revision, actor)).rejects.toMatchObject({
      code: 'brand_draft_changed',
    });
    await discardBrandDraft(database.db, 'r5', actor);
  });

  it('refuses a bad logo with 400 naming the logo, and saves nothing', async () => {
    const badLogos = [
      { logo: { bytes: PNG, mediaType: 'image/svg+xml' }, code: 'logo_type_mismatch' },
      {
        logo: {
          bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
          mediaType: 'image/svg+xml',
        },
        code: 'logo_unsafe',
      },
      { logo: { bytes: Buffer.alloc(600 * 1024, 0x20), mediaType: 'image/png' }, code: 'logo_too_large' },
    ];
    for (const { logo, code } of badLogos) {
      const refusal = await saveBrandDraft(database.db, a.registry, 'lacleman', draft({ logo }), actor).catch(
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(BrandInputError);
      expect(refusal).toMatchObject({ status: 400, fields: { logo: code } });
    }
    const many = await saveBrandDraft(
      database.db,
      a.registry,
      'lacleman',
      draft({ displayName: ' ', primaryColor: 'red', contact: { name: '', phone: '12' } }),
      actor,
    ).catch((error: unknown) => error);
    expect(many).toMatchObject({
      status: 400,
      fields: {
        displayName: 'required',
        primaryColor: 'invalid',
        contactName: 'required',
        contactPhone: 'invalid',
      },
    });
    expect(await draftOf(database.db, 'lacleman')).toBeUndefined();
    const rows = await database.db
      .selectFrom('admin_audit')
      .select('id')
      .where('tenant', '=', 'lacleman')
      .execute();
    expect(rows).toEqual([]);
  });
});

describe('the preview of a draft', () => {
  let preview: TestServer;
  beforeAll(async () => {
    // A console session for "alpenblick" is one that says so (the console plugs its own check in).
    const mayPreviewBrand: BrandPreviewCheck = async (request, tenant) =>
      request.headers['x-test-console-tenant'] === tenant;
    preview = await startInstance(database.db, mayPreviewBrand);
  }, 120_000);
  afterAll(() => preview?.app.close());

  it('shows the draft on every page only to a console session of the tenant, framed by the console only', async () => {
    const { revision } = await saveBrandDraft(
      database.db,
      a.registry,
      'alpenblick',
      draft({
        displayName: 'Alpenblick Wohnen AG',
        primaryColor: '#5f3dc4',
        stylesheet: '.layout-card { border-color: #5f3dc4; }',
        logo: { bytes: PNG, mediaType: 'image/png' },
        flags: { useSpecialLogo: false },
      }),
      actor,
    );
    const editor = await brandEditor(database.db, a.registry, 'alpenblick');
    expect(editor.draftRevision).toBe(revision);
    expect(editor.draft?.logoUrl).toBe(`/logo/brand.jpg?subdomain=alpenblick&brandPreview=${revision}`);
    const session = { 'x-test-console-tenant': 'alpenblick' };
    const seen: string[] = [];
    for (const { page: path, url } of editor.previewUrls) {
      const response = await page(preview, url, session);
      seen.push(`${path} ${response.statusCode}`);
      expect(colourOf(response.body), path).toBe('#5f3dc4');
      expect(response.headers['cache-control'], path).toBe('no-store');
      expect(response.headers['content-security-policy'], path).toContain("frame-ancestors 'self'");
      expect(response.headers['x-frame-options'], path).toBe('SAMEORIGIN');
      expect(response.body, path).toContain(
        `"stylesheetUrl":"/css/brand.css?subdomain=alpenblick&brandPreview=${revision}"`,
      );
    }
    expect(seen).toEqual(PREVIEW_PAGES.map((path) => `${path} 200`));
    const logo = await preview.app.inject({ url: editor.draft!.logoUrl, headers: session });
    expect(logo.rawPayload.equals(PNG)).toBe(true);
    expect(logo.headers['cache-control']).toBe('no-store');
    const css = await preview.app.inject({
      url: `/css/brand.css?subdomain=alpenblick&brandPreview=${revision}`,
      headers: session,
    });
    expect(css.body).toContain('#5f3dc4');

    // Anyone else — no session, or one of another tenant — gets the published page and its frame policy.
    for (const headers of [{}, { 'x-test-console-tenant': 'demo' }] as Record<string, string>[]) {
      const response = await page(preview, `/login?subdomain=alpenblick&brandPreview=${revision}`, headers);
      expect(colourOf(response.body)).toBe('#f59f00');
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      const otherLogo = await preview.app.inject({ url: editor.draft!.logoUrl, headers });
      expect(otherLogo.body).toContain('<svg');
    }
  });
});

/**
 * One instance of the real server on the shared embedded provider, as test-support's
 * startTestServer builds it, with a console's preview check, which that takes none of. The console
 * itself is left out: its build is not what is tested here.
 */
async function startInstance(db: Kysely<ServerTables>, mayPreviewBrand?: BrandPreviewCheck) {
  const provider = await sharedProvider();
  const config = {
    ...loadConfig({
      CONCIERGE_DEV: 'true',
      PORTAL_URL: 'http://portal.test',
      PROVIDER_URL: provider.url,
      PROVIDER_ADMIN_CLIENT_SECRET: TEST_ADMIN_CLIENT.clientSecret,
      LOG_LEVEL: 'warn',
    }),
    console: undefined,
  };
  const registry = await loadTenantRegistry(config.tenantsFile, { portalUrl: config.portalUrl });
  const app = await buildServer(config, {
    db,
    portal: await loadPortalBuild(config.portalDistDir),
    registry,
    provider: new ProviderClient({
      baseUrl: config.providerUrl,
      ...config.providerAdmin,
      ...config.providerCalls,
    }),
    mailTransport: createMailTransport(config.mail),
    ...(mayPreviewBrand ? { mayPreviewBrand } : {}),
  });
  return { app, config, registry };
}
