import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { ServerConfig } from '../config';
import { securityHeaders, securityHeadersOf } from './security-headers';

const config = {
  providerUrl: 'https://provider.test',
  portalUrl: 'https://portal.test',
  runtime: { restApiBaseUrl: 'https://portal.test' },
} as ServerConfig;

describe('security headers', () => {
  it('name the customer portals of the registry as it is now, on pages and on early refusals', async () => {
    let origins: readonly string[] = ['https://one.test'];
    const app = Fastify();
    securityHeaders(app, config, () => origins, []);
    app.get('/login', async () => 'page');
    app.get('/assets/app.js', async () => 'script');
    const policyOf = async (url: string) =>
      (await app.inject({ url })).headers['content-security-policy'] as string | undefined;

    expect(await policyOf('/login')).toContain("form-action 'self' https://provider.test https://one.test;");
    // A tenant added to the registry file: the registry's next state has new origins.
    origins = ['https://one.test', 'https://two.test'];
    expect(await policyOf('/login')).toContain('https://one.test https://two.test;');
    expect(securityHeadersOf(app)['content-security-policy']).toContain('https://two.test');
    // A script keeps only what a browser applies to a script.
    expect(await policyOf('/assets/app.js')).toBeUndefined();
    const script = await app.inject({ url: '/assets/app.js' });
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    expect(script.headers['strict-transport-security']).toContain('max-age=31536000');
    expect(script.headers['permissions-policy']).toBeUndefined();
  });
});
