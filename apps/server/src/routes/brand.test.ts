import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../test-support/test-server';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('GET /api/designs/{subdomain}', () => {
  it('answers each tenant its own design', async () => {
    const demo = (await server.app.inject({ url: '/api/designs/demo' })).json();
    const it2 = (await server.app.inject({ url: '/api/designs/it2' })).json();
    expect(demo).toMatchObject({ subdomain: 'demo', primaryColor: '#1864ab', themePreset: 'default' });
    expect(it2).toMatchObject({ subdomain: 'it2', primaryColor: '#2b8a3e', themePreset: 'it2' });
    expect(demo.primaryShades).toHaveLength(10);
    expect(demo.logoUrl).toBe('/logo/brand.jpg?subdomain=demo');
    expect(demo.stylesheetUrl).toBe('/css/brand.css?subdomain=demo');
    expect(it2.stylesheetUrl).toBeNull();
  });

  it.each(['nobody', 'DEMO', '..%2Fetc', '%3Cscript%3E'])(
    'answers %s with a 404 envelope',
    async (subdomain) => {
      const response = await server.app.inject({ url: `/api/designs/${subdomain}` });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ success: false, error: { code: 'unknown_subdomain' } });
    },
  );
});

describe('brand assets', () => {
  it('answers the logo of the tenant in the subdomain parameter, with caching headers', async () => {
    const demo = await server.app.inject({ url: '/logo/brand.jpg?subdomain=demo' });
    const r5 = await server.app.inject({ url: '/logo/brand.jpg?subdomain=r5' });
    expect(demo.statusCode).toBe(200);
    expect(demo.headers['content-type']).toBe('image/svg+xml');
    expect(demo.headers['cache-control']).toContain('max-age');
    expect(demo.headers.etag).toBeTruthy();
    expect(demo.body).toContain('Demo Immobilien AG');
    expect(r5.body).toContain('R5 Immobilien');
    const again = await server.app.inject({
      url: '/logo/brand.jpg?subdomain=demo',
      headers: { 'if-none-match': demo.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
  });

  it('answers the special logo for tenants flagged so', async () => {
    const response = await server.app.inject({ url: '/logo/brand.jpg?subdomain=alpenblick' });
    expect(response.body).toContain('Partnerlogo');
  });

  it("takes the tenant from the host under the portal's own (PORTAL_URL) when there is no subdomain parameter", async () => {
    const logoFor = async (host: string) =>
      (await server.app.inject({ url: '/logo/brand.jpg', headers: { host } })).body;
    expect(await logoFor('r5.portal.test')).toContain('R5 Immobilien');
    expect(await logoFor('r5.portal.test:8080')).toContain('R5 Immobilien');
    // Issue 26: any other Host header selects nothing.
    for (const host of ['r5.evil.example', 'r5', 'r5.portal.test.evil.example', 'r5.x.y.portal.test']) {
      expect(await logoFor(host), host).toContain('Demo Immobilien AG');
    }
  });

  it('falls back to the default brand for unknown and hostile subdomains', async () => {
    for (const subdomain of ['nobody', '../../etc/passwd', '<x>']) {
      const response = await server.app.inject({
        url: `/logo/brand.jpg?subdomain=${encodeURIComponent(subdomain)}`,
      });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('Demo Immobilien AG');
    }
  });

  it('answers the stylesheet of the tenant, and an empty one for a tenant without', async () => {
    const demo = await server.app.inject({ url: '/css/brand.css?subdomain=alpenblick' });
    expect(demo.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(demo.body).toContain('#f59f00');
    const none = await server.app.inject({ url: '/css/brand.css?subdomain=it2' });
    expect(none.statusCode).toBe(200);
    expect(none.body).toBe('');
  });
});

describe('branded pages', () => {
  it('renders the tenant brand into the first HTML: colours, logo and stylesheet', async () => {
    const html = (await server.app.inject({ url: '/login?subdomain=alpenblick' })).body;
    expect(html).toContain('src="/logo/brand.jpg?subdomain=alpenblick"');
    expect(html).toMatch(
      /<link rel="stylesheet" href="\/assets\/[^"]+\.css"><link rel="stylesheet" href="\/css\/brand\.css\?subdomain=alpenblick">/,
    );
    // Mantine's CSS variables carry the brand shades in the server-rendered markup
    expect(html).toMatch(/--mantine-color-brand-\d: #[0-9a-f]{6}/);
    expect(html).toContain('"subdomain":"alpenblick"');
  });

  it('shows the environment default brand for an unknown subdomain and keeps the navigation on registry hosts', async () => {
    const html = (await server.app.inject({ url: '/login?subdomain=evil.example.com' })).body;
    expect(html).toContain('src="/logo/brand.jpg?subdomain=demo"');
    expect(html).toContain('"isRequested":false');
    // nothing the page could navigate to points at the hostile host
    expect(html).not.toMatch(/(href|src|action)="(https?:)?\/\/[^"]*evil\.example\.com/);
    expect(html).toContain('"portalUrl":"http://localhost:8082"');
  });

  it("takes the environment from the prefix of the portal's own host when the tenant does not say", async () => {
    const stateFor = async (host: string) =>
      (await server.app.inject({ url: '/page-state.json', headers: { host } })).json();
    const state = await stateFor('test.portal.test');
    expect(state.config.env).toBe('test');
    expect(state.tenant.subdomain).toBe('demo');
    // Issue 26: only the portal's host names an environment; elsewhere the configured one (dev).
    expect((await stateFor('test.evil.example')).config.env).toBe('dev');
    const r5 = await stateFor('r5.evil.example');
    expect(r5.tenant).toMatchObject({ subdomain: 'demo', isRequested: false });
  });
});
