import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { registryFileSchema } from './registry-file';
import { TenantRegistry } from './tenant-registry';

const shipped = fileURLToPath(new URL('../../../../tenants/tenants.json', import.meta.url));

/** The shipped registry, it2's client named at the provider as an operator may name it. */
function registry(portalUrl?: string): TenantRegistry {
  const file = JSON.parse(readFileSync(shipped, 'utf8'));
  for (const tenant of file.tenants) if (tenant.subdomain === 'it2') tenant.clientName = 'IT2 Portal (prod)';
  return new TenantRegistry(registryFileSchema.parse(file), '.', portalUrl ? { portalUrl } : {});
}

describe('TenantRegistry (issue 26)', () => {
  it("reads a tenant or an environment only from the portal's own host names", () => {
    const tenants = registry('https://prod.login.example.ch');
    const at = (host: string) => tenants.resolve({ host, fallbackEnvironment: 'prod' });
    expect(at('r5.login.example.ch')).toMatchObject({ subdomain: 'r5', isRequested: true });
    expect(at('R5.prod.login.example.ch:443')).toMatchObject({ subdomain: 'r5', isRequested: true });
    expect(at('test.login.example.ch').environment).toBe('test');
    for (const host of ['r5.evil.example', 'r5.login.example.ch.evil.example', 'r5.a.b.login.example.ch']) {
      expect(at(host), host).toMatchObject({ subdomain: 'demo', isRequested: false, environment: 'prod' });
    }
    expect(at('test.evil.example').environment).toBe('prod');
    // Without the portal's URL no host selects anything.
    expect(registry().resolve({ host: 'r5.login.example.ch', fallbackEnvironment: 'dev' }).subdomain).toBe(
      'demo',
    );
  });

  it('shows a sign-in request only under a tenant whose client it can be', () => {
    const tenants = registry();
    const [demo, it2, r5] = ['demo', 'it2', 'r5'].map((name) => tenants.bySubdomain(name)!);
    // A client id in the answer decides (cidaas sends none; the embedded provider or another may).
    expect(
      tenants.isRequestOf(demo!, { client_id: 'property-portal-demo', client_name: 'R5 Immobilien' }),
    ).toBe(true);
    expect(tenants.isRequestOf(r5!, { client_id: 'property-portal-demo' })).toBe(false);
    // The registry's clientName decides for its tenant.
    expect(tenants.isRequestOf(it2!, { client_name: 'IT2 Portal (prod)' })).toBe(true);
    expect(tenants.isRequestOf(it2!, { client_name: 'IT2 Liegenschaften' })).toBe(false);
    // Otherwise a name that is another tenant's (its displayName, as the embedded provider names a
    // client) is refused, and a name nobody has cannot be told apart: accepted.
    expect(tenants.isRequestOf(r5!, { client_name: 'Demo Immobilien AG' })).toBe(false);
    expect(tenants.isRequestOf(r5!, { client_name: 'IT2 Portal (prod)' })).toBe(false);
    expect(tenants.isRequestOf(r5!, { client_name: 'R5 Immobilien' })).toBe(true);
    expect(tenants.isRequestOf(r5!, { client_name: 'Some cidaas client' })).toBe(true);
    expect(tenants.tenantsNamedBy({ client_name: 'Demo Immobilien AG' }).map((t) => t.subdomain)).toEqual([
      'demo',
    ]);
  });
});
