import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadTenantRegistry } from './load-registry';

const shipped = fileURLToPath(new URL('../../../../tenants', import.meta.url));
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

interface EditableRegistry {
  defaultTenants: Record<string, string>;
  tenants: (Record<string, unknown> & { brand: Record<string, unknown> })[];
}

/** A copy of the shipped registry with one change made to its JSON. */
function registryWith(change: (registry: EditableRegistry) => void): string {
  const folder = mkdtempSync(join(tmpdir(), 'tenants-'));
  folders.push(folder);
  cpSync(shipped, folder, { recursive: true });
  const file = join(folder, 'tenants.json');
  const registry = JSON.parse(readFileSync(file, 'utf8'));
  change(registry);
  writeFileSync(file, JSON.stringify(registry));
  return file;
}

describe('loadTenantRegistry', () => {
  it('accepts the shipped registry with at least four distinct demo brands', async () => {
    const registry = await loadTenantRegistry(join(shipped, 'tenants.json'));
    const subdomains = registry.tenants.map((tenant) => tenant.subdomain);
    expect(subdomains).toEqual(expect.arrayContaining(['it2', 'r5']));
    expect(new Set(registry.tenants.map((tenant) => tenant.brand.primaryColor)).size).toBeGreaterThanOrEqual(
      4,
    );
    expect(registry.tenants.some((tenant) => tenant.flags.useSpecialLogo)).toBe(true);
    expect(registry.tenants.some((tenant) => tenant.flags.hideRegisterLoginLink)).toBe(true);
  });

  it.each([
    [
      'a colour that is not #rrggbb',
      (r: EditableRegistry) => (r.tenants[1]!.brand.primaryColor = 'red'),
      /tenant "it2", field brand\.primaryColor/,
    ],
    [
      'a logo outside the tenants folder',
      (r: EditableRegistry) => (r.tenants[0]!.brand.logo = '../secrets.png'),
      /tenant "demo", field brand\.logo/,
    ],
    [
      'a missing logo file',
      (r: EditableRegistry) => (r.tenants[2]!.brand.logo = 'r5/missing.svg'),
      /tenant "r5", field brand\.logo: file r5\/missing\.svg not found/,
    ],
    [
      'a portal URL that is no http(s) URL',
      (r: EditableRegistry) => (r.tenants[0]!.portalUrl = 'javascript:alert(1)'),
      /tenant "demo", field portalUrl/,
    ],
    [
      'a malformed subdomain',
      (r: EditableRegistry) => (r.tenants[0]!.subdomain = 'Demo Tenant'),
      /field subdomain/,
    ],
    [
      'a duplicate subdomain',
      (r: EditableRegistry) => (r.tenants[1]!.subdomain = 'demo'),
      /tenant "demo", field subdomain: appears twice/,
    ],
    [
      'an unknown field',
      (r: EditableRegistry) => (r.tenants[0]!.brand.colour = '#000000'),
      /tenant "demo", field brand/,
    ],
    [
      'an unknown theme preset',
      (r: EditableRegistry) => (r.tenants[0]!.brand.themePreset = 'neon'),
      /tenant "demo", field brand\.themePreset/,
    ],
    [
      'a contact phone that is no phone number',
      (r: EditableRegistry) => ((r.tenants[0]!.contact as { phone: string }).phone = 'call us'),
      /tenant "demo", field contact\.phone/,
    ],
    [
      'office hours missing a language',
      (r: EditableRegistry) =>
        delete (r.tenants[0]!.contact as { officeHours: Record<string, string> }).officeHours.it,
      /tenant "demo", field contact\.officeHours\.it/,
    ],
    [
      'a default tenant that does not exist',
      (r: EditableRegistry) => (r.defaultTenants.prod = 'nobody'),
      /defaultTenants\.prod: no tenant "nobody"/,
    ],
  ])('stops with a message naming the tenant and field for %s', async (_what, change, message) => {
    await expect(loadTenantRegistry(registryWith(change))).rejects.toThrow(message);
  });

  it("gives pages the property manager's contact of a tenant that has one", async () => {
    const registry = await loadTenantRegistry(join(shipped, 'tenants.json'));
    const demo = registry.resolve({ subdomain: 'demo', host: undefined, fallbackEnvironment: 'dev' });
    expect(demo.contact).toMatchObject({ name: 'Demo Immobilien AG', phone: '+41 44 123 45 67' });
    expect(demo.contact?.officeHours?.fr).toMatch(/lundi/);
    const it2 = registry.resolve({ subdomain: 'it2', host: undefined, fallbackEnvironment: 'dev' });
    expect(it2.contact).toBeUndefined();
  });

  it('says so when the file is not JSON', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tenants-'));
    folders.push(folder);
    writeFileSync(join(folder, 'tenants.json'), '{ nope');
    await expect(loadTenantRegistry(join(folder, 'tenants.json'))).rejects.toThrow(/is not valid JSON/);
  });
});
