import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { PORTAL_API_PREFIX } from '@concierge/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_API_PREFIX } from './routes/admin';
import { startTestServer } from './test-support/test-server';

let server: Awaited<ReturnType<typeof startTestServer>>;
/** A page that needs a sign-in request gets one only from a provider that answers. */
let withProvider: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  [server, withProvider] = await Promise.all([startTestServer(), startTestServer({}, { provider: true })]);
}, 120_000);
afterAll(() => Promise.all([server.close(), withProvider.close()]));

describe('runtime configuration', () => {
  it('answers /config.json with env, provider, REST API, client id and the link lifetimes', async () => {
    const response = await server.app.inject({ url: '/config.json' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      env: 'dev',
      cidaasBaseUrl: 'http://provider.test',
      restApiBaseUrl: 'http://portal.test',
      propertyPortalClientId: 'property-portal-demo',
      activationLinkLifetimeMinutes: server.config.activationLinkTtlHours * 60,
      resetLinkLifetimeMinutes: 60,
    });
  });

  it('names the environment the page of the same address is rendered with (spec §1)', async () => {
    const envOf = async (host: string, query: string) => {
      const config = (await server.app.inject({ url: `/config.json${query}`, headers: { host } })).json();
      const page = (await server.app.inject({ url: `/password-set-success${query}`, headers: { host } }))
        .body;
      const pageEnv = /"config":\{"env":"(\w+)"/.exec(page)?.[1];
      return { config: config.env, page: pageEnv };
    };
    // the host's prefix, when no tenant names one
    expect(await envOf('prod.portal.test', '')).toEqual({ config: 'prod', page: 'prod' });
    expect(await envOf('test.portal.test', '?subdomain=nobody')).toEqual({ config: 'test', page: 'test' });
    // the tenant's own environment wins over the host's
    expect(await envOf('prod.portal.test', '?subdomain=r5')).toEqual({ config: 'dev', page: 'dev' });
    // a host that is not the portal's selects nothing: the configured default
    expect(await envOf('prod.evil.example', '')).toEqual({ config: 'dev', page: 'dev' });
  });
});

describe('server-rendered pages', () => {
  it('renders /login with the form, in the browser language, with the configuration inlined', async () => {
    const response = await withProvider.app.inject({
      url: '/login?requestId=abc&subdomain=demo',
      headers: { 'accept-language': 'fr-CH,fr;q=0.9,en;q=0.5' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    const html = response.body;
    expect(html).toContain('<html lang="fr"');
    expect(html).toContain('<title>Connexion – Demo Immobilien AG</title>');
    // The provider does not know `abc`: the page comes with a fresh request, its form posting to the provider.
    const fresh = /name="requestId" value="([^"]+)"/.exec(html)?.[1];
    expect(fresh).toMatch(/^[\w-]{8,}$/);
    expect(fresh).not.toBe('abc');
    expect(html).toMatch(/<form[^>]+action="http:\/\/127\.0\.0\.1:\d+\/login-srv\/login"/);
    expect(html).toContain('Adresse e-mail');
    expect(html).toMatch(/<script type="application\/json" id="concierge-state">\{"config":\{"env":"dev"/);
    expect(html).toMatch(/<link rel="stylesheet" href="\/assets\/entry-client-[\w-]+\.css">/);
    // One script element: the start script, inline, naming the entry and the page's chunks (started
    // after load); the CSP allows it by its hash and no other inline script.
    const start =
      /<script type="module" data-entry="\/assets\/entry-client-[\w-]+\.js" data-preloads="[^"]*\/assets\/Login-[\w-]+\.js[^"]*">([\s\S]+?)<\/script>/.exec(
        html,
      )?.[1];
    expect(start).toContain('modulepreload');
    const hash = `'sha256-${createHash('sha256').update(start!).digest('base64')}'`;
    const scriptSources = /script-src ([^;]+)/.exec(String(response.headers['content-security-policy']))?.[1];
    expect(scriptSources?.split(' ')).toEqual(["'self'", hash]);
    expect(html.match(/<script /g)).toHaveLength(2);
    expect(html).not.toMatch(/<script>(?!<)/);
  });

  it("carries each tenant's theme variables once, in the head after the stylesheets", async () => {
    const pageOf = async (subdomain: string) =>
      (await server.app.inject({ url: `/login?subdomain=${subdomain}` })).body;
    const [demo, r5] = await Promise.all([pageOf('demo'), pageOf('r5')]);
    for (const html of [demo, r5]) {
      const head = html.slice(0, html.indexOf('</head>'));
      const body = html.slice(html.indexOf('<body>'));
      expect(head).toMatch(/<link rel="stylesheet"[^>]*>(<link[^>]*>)*<style data-mantine-styles="true">/);
      expect(head).toContain('<style data-mantine-styles="classes">');
      expect(head).toContain('--brand-link-color:');
      expect(body).not.toContain('data-mantine-styles');
    }
    const variables = (html: string) => html.match(/<style data-mantine-styles="true">([^<]*)<\/style>/)?.[1];
    expect(variables(demo)).not.toBe(variables(r5));
    expect(variables(await pageOf('demo'))).toBe(variables(demo));
  });

  it("speaks the language the page's switcher (or cidaas's lang) asks for, over the browser's", async () => {
    const response = await server.app.inject({
      url: '/login?subdomain=demo&lang=it',
      headers: { 'accept-language': 'de-CH' },
    });
    expect(response.body).toContain('<html lang="it"');
    // cidaas sends lang= empty: the browser's language then.
    const empty = await server.app.inject({
      url: '/login?subdomain=demo&lang=',
      headers: { 'accept-language': 'fr-CH' },
    });
    expect(empty.body).toContain('<html lang="fr"');
  });

  it.each([
    ['fr-CH', 'fr'],
    ['FR', 'fr'],
    ['it_CH', 'it'],
    ['EN-gb', 'en'],
  ])('reads lang=%s as a language tag, in any case', async (lang, language) => {
    const response = await server.app.inject({
      url: `/login?subdomain=demo&lang=${lang}`,
      headers: { 'accept-language': 'de-CH' },
    });
    expect(response.body).toContain(`<html lang="${language}"`);
    expect(response.body).toContain(`"language":"${language}"`);
  });

  it('takes the browser’s language for a lang the portal does not speak', async () => {
    const response = await server.app.inject({
      url: '/login?subdomain=demo&lang=es-CH',
      headers: { 'accept-language': 'fr-CH' },
    });
    expect(response.body).toContain('<html lang="fr"');
  });

  it('falls back to German for languages the portal does not speak', async () => {
    const response = await withProvider.app.inject({
      url: '/login',
      headers: { 'accept-language': 'es-ES,pt;q=0.8' },
    });
    expect(response.body).toContain('<html lang="de"');
    expect(response.body).toContain('<title>Anmelden – Demo Immobilien AG</title>');
  });

  it('shows a translated error from the allow-list and never the error_description', async () => {
    const response = await server.app.inject({
      url: '/login?requestId=a&error=invalid_username_password&error_description=%3Cimg%20src%3Dx%3Epwned',
      headers: { 'accept-language': 'de' },
    });
    expect(response.body).toContain('E-Mail-Adresse oder Passwort ist falsch.');
    expect(response.body).not.toContain('pwned');
  });

  it('keeps hostile query values out of the markup', async () => {
    const response = await withProvider.app.inject({
      url: '/login?requestId=%22%3E%3Cscript%3Ealert(1)%3C/script%3E',
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain('<script>alert(1)</script>');
  });

  it('redirects / to /login with the query string', async () => {
    const response = await server.app.inject({ url: '/?requestId=r1&subdomain=demo' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/login?requestId=r1&subdomain=demo');
  });

  it('answers unknown pages with a translated 404 page and unknown API paths with a 404 envelope', async () => {
    const page = await server.app.inject({
      url: '/nowhere',
      headers: { accept: 'text/html', 'accept-language': 'it' },
    });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('Pagina non trovata');
    const api = await server.app.inject({ url: '/api/nowhere', headers: { accept: 'application/json' } });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ success: false, status: 404, error: { code: 'not_found' } });
  });

  it('serves the hashed assets with a long cache lifetime', async () => {
    const page = await server.app.inject({ url: '/login' });
    const script = /data-entry="([^"]+)"/.exec(page.body)?.[1];
    expect(script).toBeDefined();
    const asset = await server.app.inject({ url: script! });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('sends a script only the headers a browser applies to a script, and its page all of them', async () => {
    const page = await server.app.inject({ url: '/login' });
    const script = /data-entry="([^"]+)"/.exec(page.body)?.[1];
    const asset = await server.app.inject({ url: script! });
    expect(asset.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'cross-origin-resource-policy': 'same-origin',
      'referrer-policy': 'no-referrer',
    });
    for (const documentOnly of [
      'content-security-policy',
      'x-frame-options',
      'permissions-policy',
      'origin-agent-cluster',
    ]) {
      expect(asset.headers, documentOnly).not.toHaveProperty(documentOnly);
      expect(page.headers, documentOnly).toHaveProperty(documentOnly);
    }
    // the name carries the content's hash: nothing to revalidate
    expect(asset.headers).not.toHaveProperty('etag');
    expect(asset.headers).not.toHaveProperty('last-modified');
  });

  it.each([
    '/password-set?requestId=r&rprq=x&exchangeid=y',
    '/register',
    '/password-reset-init?requestId=r',
    '/resend-account-activation-email',
  ])(
    'renders %s as a form that posts to its own page with its token, ready before the script (issue 25)',
    async (url) => {
      const html = (await server.app.inject({ url })).body;
      const form = /<form[^>]*>/.exec(html)?.[0] ?? '';
      expect(form).toContain('method="post"');
      // No action: the form goes to the page's own address, never to a GET with the password in it.
      expect(form).not.toContain('action=');
      expect(html).toMatch(/<input type="hidden" name="_csrf" value="[\w-]{20,}"/);
      expect(html).toMatch(/<button[^>]* type="submit"/);
      expect(html).not.toMatch(/<button[^>]* type="submit" disabled=""/);
    },
  );

  it('inlines only the texts of the page it renders', async () => {
    const login = (await server.app.inject({ url: '/login', headers: { 'accept-language': 'de' } })).body;
    expect(login).toContain('"login":{');
    expect(login).not.toContain('"terms":{');
    const register = (await server.app.inject({ url: '/register', headers: { 'accept-language': 'de' } }))
      .body;
    expect(register).toContain('"terms":{');
  });

  it('answers other pages’ texts by part, for navigation in the browser', async () => {
    const parts = (await server.app.inject({ url: '/messages/fr?namespaces=register,terms' })).json();
    expect(Object.keys(parts).sort()).toEqual(['register', 'terms']);
    expect(parts.terms.accept).toBe('Accepter');
    for (const url of [
      '/messages/xx?namespaces=login',
      '/messages/de?namespaces=nope',
      '/messages/de',
      '/messages/de?namespaces=__proto__',
    ]) {
      expect((await server.app.inject({ url })).statusCode, url).toBe(404);
    }
  });

  it('answers the page state for a page that must boot without it inlined', async () => {
    const response = await server.app.inject({
      url: '/page-state.json?subdomain=it2&path=/login',
      headers: { 'accept-language': 'it-CH' },
    });
    expect(response.json()).toMatchObject({
      language: 'it',
      messages: { login: { title: 'Accesso' } },
      tenant: { subdomain: 'it2', isRequested: true },
      config: { env: 'dev', cidaasBaseUrl: 'http://provider.test' },
    });
  });
});

describe('security headers', () => {
  it('sends a CSP without inline script that lets the form reach the provider, and no Referer', async () => {
    const response = await server.app.inject({ url: '/login' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    // the customer portals come from the tenant registry: the login form's redirect lands there
    expect(csp).toContain("form-action 'self' http://provider.test http://localhost:8082");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it.each(['/login', '/config.json', '/no-such-path'])(
    'denies powerful features a sign-in page never needs (%s)',
    async (url) => {
      const policy = String((await server.app.inject({ url })).headers['permissions-policy']);
      for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb']) {
        expect(policy).toContain(`${feature}=()`);
      }
    },
  );
});

/** One request over a plain socket: the exact bytes go out, whatever a client library would refuse. */
function rawExchange(
  port: number,
  request: string,
): Promise<{ status: number; headers: Headers; body: string }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: '127.0.0.1', port }, () => socket.end(request));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', ...rest] = Buffer.concat(chunks).toString('utf8').split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = new Headers();
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}

/**
 * Issue "Hardening": what Fastify answers before any hook runs (the router's frameworkErrors, Node's
 * clientError) or from its content-type parsers carries the same headers as a page, in the envelope.
 */
describe('security headers on the framework’s own errors', () => {
  let port: number;
  let expected: Headers;
  beforeAll(async () => {
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const address = server.app.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
    expected = (await fetch(`http://127.0.0.1:${port}/healthz`)).headers;
  });

  function expectSecurityHeaders(headers: Headers) {
    for (const name of [
      'content-security-policy',
      'x-frame-options',
      'referrer-policy',
      'x-content-type-options',
      'permissions-policy',
      'cross-origin-resource-policy',
      'x-permitted-cross-domain-policies',
    ]) {
      expect(headers.get(name), name).toBe(expected.get(name));
    }
    expect(headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(headers.get('x-frame-options')).toBe('DENY');
    expect(headers.get('permissions-policy')).toContain('camera=()');
  }

  function expectEnvelope(body: string, status: number) {
    expect(JSON.parse(body)).toMatchObject({ success: false, status, error: { status } });
    // Fastify's own answers echo the path; the envelope names what was wrong without it.
    expect(body).not.toContain('%E0%A4%A');
  }

  const json = { 'content-type': 'application/json' };
  const register = `${PORTAL_API_PREFIX}/register-user`;
  it.each([
    ['malformed percent-encoding in the path', 'GET', '/%E0%A4%A', {}, undefined, 400],
    ['malformed percent-encoding in an API path', 'POST', `${PORTAL_API_PREFIX}/%E0%A4%A`, json, '{}', 400],
    ['invalid JSON', 'POST', register, json, '{not json', 400],
    [
      'a path parameter longer than the router takes',
      'POST',
      `${ADMIN_API_PREFIX}/codes/${'c'.repeat(500)}/revoke`,
      {},
      undefined,
      414,
    ],
    [
      'an unsupported media type',
      'POST',
      `${PORTAL_API_PREFIX}/events`,
      {
        'content-type': 'application/xml',
        'x-api-key': 'concierge-dev-webhook-key' /* the test configuration's */,
      },
      '<a/>',
      415,
    ],
    ['a body above the limit', 'POST', register, json, `{"a":"${'x'.repeat(70_000)}"}`, 413],
  ])('sends them with %s', async (_name, method, path, headers, body, status) => {
    const requestId = `edge-${status}`;
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: { ...headers, 'x-request-id': requestId },
      body,
    });
    const text = await response.text();
    expect(response.status).toBe(status);
    expectSecurityHeaders(response.headers);
    expectEnvelope(text, status);
    // The load balancer's request id comes back, also where no hook ran.
    expect(response.headers.get('x-request-id')).toBe(requestId);
  });

  it('sends them with a header section larger than Node takes (431)', async () => {
    const response = await rawExchange(
      port,
      `GET /login HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(response.status).toBe(431);
    expectSecurityHeaders(response.headers);
    expectEnvelope(response.body, 431);
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends them with a request Node cannot parse (400)', async () => {
    const response = await rawExchange(port, 'GET /login HTTP/1.1\r\nHost x\r\n\r\n');
    expect(response.status).toBe(400);
    expectSecurityHeaders(response.headers);
    expectEnvelope(response.body, 400);
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('compression', () => {
  it('sends a page brotli-compressed where the browser takes it, gzip otherwise, and plain without', async () => {
    const page = (encoding?: string) =>
      server.app.inject({
        url: '/login?subdomain=demo',
        headers: { accept: 'text/html', ...(encoding ? { 'accept-encoding': encoding } : {}) },
      });
    const plain = await page();
    expect(plain.headers['content-encoding']).toBeUndefined();
    const brotli = await page('gzip, deflate, br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(plain.body);
    expect(brotli.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    const gzip = await page('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
  });

  it("serves the portal's scripts as compressed at build, not compressed anew", async () => {
    const page = await server.app.inject({ url: '/login', headers: { accept: 'text/html' } });
    const script = /data-entry="(\/assets\/[^"]+\.js)"/.exec(page.body)?.[1];
    if (!script) throw new Error('no script on the page');
    const answer = await server.app.inject({ url: script, headers: { 'accept-encoding': 'br' } });
    expect(answer.headers['content-encoding']).toBe('br');
    const onDisk = readFileSync(`${server.config.portalDistDir}/client${script}.br`);
    expect(answer.rawPayload.equals(onDisk)).toBe(true);
  });
});

describe('cache control of the pages', () => {
  // Their URLs carry one-time tokens (reset ids, verification ids): no cache may keep them.
  it.each([
    '/password-set?requestId=r1&rprq=reset-1&exchangeid=ex-1',
    '/verification-complete?email=anna%40example.ch&verificationid=ver-1',
  ])('stores no copy of %s', async (url) => {
    expect((await server.app.inject({ url })).headers['cache-control']).toBe('no-store');
  });

  it('lets the other pages be kept if revalidated', async () => {
    expect((await server.app.inject({ url: '/login' })).headers['cache-control']).toBe('no-cache');
  });
});

describe('health', () => {
  it('is healthy and ready with its database', async () => {
    expect((await server.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await server.app.inject({ url: '/readyz' })).json()).toEqual({ status: 'ready' });
  });
});

describe('bad input', () => {
  it('answers a malformed JSON body with a 4xx envelope, never a 500', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/config.json',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
  });

  it('answers a path with broken percent-encoding with a 4xx', async () => {
    const response = await server.app.inject({ url: '/login?requestId=%E0%A4%A' });
    expect(response.statusCode).toBeLessThan(500);
  });
});
