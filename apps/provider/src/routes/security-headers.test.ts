import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECK_SESSION_PATH } from '../oidc/session-management';
import { type ProviderHarness, RP_URL, startProvider } from '../test-support/provider-harness';

describe('security headers of the provider', () => {
  let harness: ProviderHarness;
  beforeAll(async () => {
    harness = await startProvider();
  });
  afterAll(() => harness.close());

  // oidc-provider's own pages (sign-out, its 404s), a Fastify route and a JSON refusal alike.
  it.each([
    ['the sign-out page', '/session/end_session'],
    ['the signed-out page', '/session/end_session/success'],
    ['an unknown path', '/no-such-page'],
    ['an unknown path under a hosted route', '/login-srv/nothing-here'],
    ['the discovery document', '/.well-known/openid-configuration'],
    ['the health check', '/healthz'],
  ])('sends them on %s', async (_name, path) => {
    const response = await fetch(`${harness.baseUrl}${path}`, { redirect: 'manual' });
    await response.arrayBuffer();
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('permissions-policy')).toContain('camera=()');
    expect(response.headers.get('permissions-policy')).toContain('geolocation=()');
  });

  it('still lets the relying parties frame the session check page', async () => {
    const response = await fetch(`${harness.baseUrl}${CHECK_SESSION_PATH}`);
    await response.arrayBuffer();
    expect(response.headers.get('x-frame-options')).toBeNull();
    expect(response.headers.get('content-security-policy')).toContain(`frame-ancestors ${RP_URL}`);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('permissions-policy')).toContain('camera=()');
  });
});
