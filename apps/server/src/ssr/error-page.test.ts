import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { installErrorHandler } from '../http/errors';
import { loadTenantRegistry } from '../tenants/load-registry';
import { renderErrorPage, wantsPage } from './error-page';
import type { PageStateContext } from './page-state';
import type { PortalBuild } from './portal-bundle';

// What pg throws when no PostgreSQL listens: the error handler's "try again later".
const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

/** A server whose every route throws what `fail` makes, with the error handler the app installs. */
async function failingApp(fail: () => Error, logLines: string[] = []) {
  const app = Fastify({ logger: { stream: { write: (line: string) => logLines.push(line) } } });
  const config = loadConfig({ CONCIERGE_DEV: 'true' });
  const context = {
    // pageStateFor asks the bundle for the page's texts only; these pages have their own.
    build: { bundle: { messagesFor: () => ({}) } } as unknown as PortalBuild,
    runtime: config.runtime,
    registry: await loadTenantRegistry(config.tenantsFile),
  } as PageStateContext;
  installErrorHandler(app, {
    errorPage: {
      wanted: wantsPage,
      render: (request, kind, referenceNumber) => renderErrorPage(request, context, kind, referenceNumber),
    },
  });
  app.get('/*', async () => {
    throw fail();
  });
  app.post('/*', async () => {
    throw fail();
  });
  return app;
}

describe('a page whose rendering fails', () => {
  it('is the branded page in the visitor’s language with the log line’s reference number, never the JSON', async () => {
    const lines: string[] = [];
    const app = await failingApp(() => new Error('text placeholder {{count}} has no value'), lines);
    const response = await app.inject({
      url: '/login?subdomain=r5',
      headers: { accept: 'text/html', 'accept-language': 'fr-CH' },
    });
    expect(response.statusCode).toBe(500);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('<html lang="fr">');
    expect(response.body).toContain('Une erreur s’est produite');
    const reference = /<code>([0-9a-f-]{36})<\/code>/.exec(response.body)?.[1];
    expect(reference).toBeDefined();
    expect(lines.find((line) => line.includes(reference!))).toContain('unhandled error');
    expect(response.body).not.toContain('placeholder');
    const api = await app.inject({ url: '/api/x', headers: { accept: 'application/json' } });
    expect(api.json()).toMatchObject({ success: false, error: { code: 'internal_error' } });
    await app.close();
  });
});

describe('while the database cannot be reached', () => {
  let app: Awaited<ReturnType<typeof failingApp>>;
  beforeAll(async () => {
    app = await failingApp(refused);
  });
  afterAll(() => app.close());

  it('gives a browser a page in the tenant’s brand and its language, asking to try again', async () => {
    const response = await app.inject({
      url: '/login?subdomain=it2&requestId=abc',
      headers: { accept: 'text/html', 'accept-language': 'it-CH,it;q=0.9' },
    });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('30');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('<html lang="it">');
    expect(response.body).toContain('Temporaneamente non disponibile');
    expect(response.body).toContain('IT2 Liegenschaften');
    expect(response.body).toContain('href="/login?subdomain=it2&#38;requestId=abc"');
    expect(response.body).not.toContain('<script');
  });

  it('answers a form sent without JavaScript with the same page', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/register?subdomain=it2',
      headers: { accept: 'text/html' },
    });
    expect(response.statusCode).toBe(503);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('href="/register?subdomain=it2"');
  });

  it('keeps the retry link on this site', async () => {
    const response = await app.inject({ url: '//evil.example/login', headers: { accept: 'text/html' } });
    expect(response.body).toContain('href="/evil.example/login"');
  });

  it('answers the API with the envelope', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/cidaas-webhook/register-user' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('30');
    expect(response.json()).toMatchObject({
      success: false,
      status: 503,
      error: { code: 'service_unavailable' },
    });
  });
});
