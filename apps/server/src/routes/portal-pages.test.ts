import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../test-support/test-server';

// Issue 26, points 1, 3 and 5 (/messages): the pages the server answers for, and with what.

const CALLBACK = 'http://localhost:8082/callback';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer({}, { provider: true });
}, 120_000);
afterAll(() => server?.close());

const page = (url: string) => server.app.inject({ url, headers: { accept: 'text/html' } });

/** What a page shows, without the texts it carries for the browser (which hold every message). */
const shownPart = (html: string) => html.slice(0, html.indexOf('id="concierge-state"'));

/** Every address the page could send a browser to: links, form targets, sources. */
function addressesIn(html: string): string[] {
  return [...html.matchAll(/\b(?:href|action|src)="([^"]*)"/g)].map((match) => match[1]!);
}

/**
 * A path of this site (one slash: `//host` and `/\\host` are other sites to a browser), inline data,
 * or the manager's phone and e-mail from the registry.
 */
const ON_SITE = /^(\/(?![/\\])|data:|tel:|mailto:)/;

/** A request line as a browser may send it, which inject() would read as a URL of another host. */
function rawGet(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port, path, headers: { accept: 'text/html' } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('a path a browser reads as another site', () => {
  it.each([
    '//evil.example/login?subdomain=demo',
    '///evil.example/login?subdomain=demo',
    '//evil.example/register?subdomain=demo&requestId=r1',
  ])('%s is the 404 page, linking only to the portal’s own routes', async (url) => {
    const response = await page(url);
    expect(response.statusCode).toBe(404);
    const addresses = addressesIn(response.body);
    expect(addresses.length).toBeGreaterThan(3);
    for (const address of addresses) {
      expect(address, address).toMatch(ON_SITE);
      expect(address, address).not.toContain('evil.example');
    }
    // The four languages lead to the sign-in page, not to the address that came.
    expect(response.body).toContain('href="/login?subdomain=demo');
  });

  it('sends nobody on with a 302 there, also when the provider named the account', async () => {
    const response = await page('//evil.example/login?subdomain=demo&sub=s-1&q=s***1');
    expect(response.statusCode).toBe(404);
    expect(response.headers.location).toBeUndefined();
  });

  it('answers /\\evil.example/login, as a browser sends it, with the 404 page too', async () => {
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    const address = server.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const response = await rawGet(port, '/\\evil.example/login?subdomain=demo');
    expect(response.status).toBe(404);
    for (const target of addressesIn(response.body)) expect(target, target).toMatch(ON_SITE);
  });
});

describe('a request id under a tenant whose client it is not', () => {
  async function requestIdOf(clientId: string): Promise<string> {
    const result = await server.provider.generateRequestId({ clientId, redirectUri: CALLBACK });
    if (result.kind !== 'answer') throw new Error(`no request id for ${clientId}`);
    return result.data;
  }
  const rememberedTenantOf = async (requestId: string) =>
    (
      await server.db
        .selectFrom('sign_in_requests')
        .select('tenant')
        .where('request_id', '=', requestId)
        .executeTakeFirst()
    )?.tenant;

  it('is not shown under another tenant nor bound to it: the page loads again without it', async () => {
    const demoRequest = await requestIdOf('property-portal-demo');
    const response = await page(`/login?subdomain=r5&requestId=${demoRequest}&lang=fr`);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/login?subdomain=r5&lang=fr');
    expect(response.body).not.toContain('Demo Immobilien');
    expect(await rememberedTenantOf(demoRequest)).toBeUndefined();
  });

  it('is shown under its own tenant, and brings that tenant to a page that names none', async () => {
    const demoRequest = await requestIdOf('property-portal-demo');
    const own = await page(`/login?subdomain=demo&requestId=${demoRequest}`);
    expect(own.statusCode).toBe(200);
    expect(own.body).toContain(`"signInRequest":{"requestId":"${demoRequest}"`);
    const r5Request = await requestIdOf('property-portal-r5');
    const unnamed = await page(`/login?requestId=${r5Request}`);
    expect(unnamed.statusCode).toBe(200);
    expect(unnamed.body).toContain('"subdomain":"r5","isRequested":true');
    expect(unnamed.body).toContain(`"signInRequest":{"requestId":"${r5Request}"`);
    expect(await rememberedTenantOf(r5Request)).toBe('r5');
  });
});

describe('GET /messages/:language', () => {
  it('reads a repeated namespaces parameter as one list, never a 500', async () => {
    const unknown = await server.app.inject({ url: '/messages/de?namespaces=a&namespaces=b' });
    expect(unknown.statusCode).toBe(404);
    const both = await server.app.inject({ url: '/messages/de?namespaces=register&namespaces=terms' });
    expect(both.statusCode).toBe(200);
    expect(Object.keys(both.json()).sort()).toEqual(['register', 'terms']);
  });
});

describe('a page that needs a sign-in request while the provider cannot be reached (issue 28)', () => {
  let away: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    // Nothing listens on port 9: every provider call is refused at once.
    away = await startTestServer({}, { provider: { url: 'http://127.0.0.1:9' } });
  }, 120_000);
  afterAll(() => away?.close());
  const pageOf = (url: string, language: string) =>
    away.app.inject({ url, headers: { accept: 'text/html', 'accept-language': language } });

  it('says so in the tenant’s language and keeps the letter’s code, the form ready for when it is back', async () => {
    const code = 'f47ac10b-58cc-4372-a567-0e02b2c3d479';
    const register = await pageOf(`/register?subdomain=r5&registrationcode=${code}`, 'fr');
    expect(register.statusCode).toBe(503);
    expect(register.headers['retry-after']).toBe('30');
    expect(shownPart(register.body)).toMatch(
      /role="alert"[^>]*>.*Le service de connexion est momentanément inaccessible\./s,
    );
    expect(register.body).toMatch(new RegExp(`<input[^>]+value="${code}"`));
    const login = await pageOf('/login?subdomain=r5&username=anna%40example.ch', 'de');
    expect(shownPart(login.body)).toContain('Der Anmeldedienst ist im Moment nicht erreichbar.');
    expect(login.body).toMatch(/<form[^>]+action="\/login\?subdomain=r5"/);
    expect(login.body).toMatch(/<input[^>]+value="anna@example.ch"/);
    // The breaker is open now: a page that needs no request says so too, and still shows its form.
    const reset = await pageOf('/password-set?subdomain=r5&rprq=r&exchangeid=e&requestId=x', 'it');
    expect(reset.statusCode).toBe(200);
    expect(shownPart(reset.body)).toContain('Il servizio di accesso non è raggiungibile al momento.');
  });
});

describe('fresh sign-in requests for one address', () => {
  let limited: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    limited = await startTestServer({ SIGN_IN_REQUESTS_PER_ADDRESS_PER_MINUTE: '2' }, { provider: true });
  }, 120_000);
  afterAll(() => limited?.close());
  const pageOf = (url: string) => limited.app.inject({ url, headers: { accept: 'text/html' } });

  it('are limited, while a page with a live request id of its own still opens', async () => {
    const first = await pageOf('/login?subdomain=demo');
    const live = /"signInRequest":\{"requestId":"([^"]+)"/.exec(first.body)?.[1];
    expect(live).toBeDefined();
    expect((await pageOf('/register?subdomain=demo')).statusCode).toBe(200);
    const third = await pageOf('/login?subdomain=demo');
    expect(third.statusCode).toBe(429);
    expect(shownPart(third.body)).toContain('Zu viele Versuche.');
    expect((await pageOf(`/login?subdomain=demo&requestId=${live}`)).statusCode).toBe(200);
  });
});
