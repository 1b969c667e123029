import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ROUTES, createPropertyPortalServer } from './server';

let distDir: string;
let app: FastifyInstance;

beforeAll(async () => {
  // A stand-in build, so the test needs no `vite build`.
  distDir = await mkdtemp(join(tmpdir(), 'property-portal-dist-'));
  await mkdir(join(distDir, 'assets'));
  await writeFile(join(distDir, 'index.html'), '<!doctype html><title>app shell</title>');
  await writeFile(join(distDir, 'assets', 'index-abc123.js'), 'console.log(1);');
  app = await createPropertyPortalServer({
    providerUrl: 'https://id.example.ch',
    clientId: 'property-portal-demo',
    publicUrl: 'https://portal.example.ch',
    distDir,
  });
});

afterAll(async () => {
  await app.close();
  await rm(distDir, { recursive: true, force: true });
});

describe('property portal server', () => {
  it('serves the runtime configuration from its settings, never cached', async () => {
    const response = await app.inject({ method: 'GET', url: '/config.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({
      authority: 'https://id.example.ch',
      clientId: 'property-portal-demo',
      redirectUri: 'https://portal.example.ch/callback',
      postLogoutRedirectUri: 'https://portal.example.ch/',
      silentRedirectUri: 'https://portal.example.ch/silent-renew',
      popupRedirectUri: 'https://portal.example.ch/popup-callback',
    });
  });

  it.each([...APP_ROUTES, '/callback?code=abc&state=xyz'])('answers %s with the app shell', async (url) => {
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toContain('app shell');
  });

  it('serves hashed assets for a year', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('sends a CSP without inline script that lets oidc-client-ts reach and frame the provider', async () => {
    const response = await app.inject({ method: 'GET', url: '/' });
    const csp = String(response.headers['content-security-policy']);
    const directives = new Map(
      csp.split(';').map((directive) => {
        const [name = '', ...values] = directive.trim().split(/\s+/);
        return [name, values] as const;
      }),
    );
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(csp).not.toContain('unsafe-inline');
    expect(directives.get('connect-src')).toContain('https://id.example.ch');
    expect(directives.get('frame-src')).toEqual(["'self'", 'https://id.example.ch']);
    expect(directives.get('frame-ancestors')).toEqual(["'self'"]);
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it.each(['/unknown', '/callback/extra', '/index.htm', '/assets/missing.js'])(
    'answers %s with 404',
    async (url) => {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.headers['referrer-policy']).toBe('no-referrer');
    },
  );
});
