import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadTenantRegistry } from './load-registry';
import { watchTenantRegistry } from './watch-registry';

const SHIPPED = fileURLToPath(new URL('../../../../tenants', import.meta.url));

describe('the tenant registry file changed while the server runs', () => {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  it('serves a new tenant and a changed brand at once, and keeps the registry when the file breaks', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'concierge-tenants-'));
    folders.push(folder);
    cpSync(SHIPPED, folder, { recursive: true });
    const file = join(folder, 'tenants.json');
    const registry = await loadTenantRegistry(file);
    const log = { info: vi.fn(), error: vi.fn() } as unknown as FastifyBaseLogger;
    const stop = await watchTenantRegistry(registry, file, {}, log);
    try {
      const changed = JSON.parse(readFileSync(file, 'utf8'));
      changed.tenants.push({ ...changed.tenants[2], subdomain: 'neu', displayName: 'Neu Immobilien' });
      changed.tenants[0].brand.primaryColor = '#2b8a3e';
      writeFileSync(file, JSON.stringify(changed));
      await vi.waitFor(() => expect(registry.bySubdomain('neu')?.displayName).toBe('Neu Immobilien'), {
        timeout: 5000,
      });
      expect(registry.design(registry.bySubdomain('demo')!).primaryColor).toBe('#2b8a3e');

      changed.tenants.push({ ...changed.tenants[0] });
      writeFileSync(file, JSON.stringify(changed));
      await vi.waitFor(() => expect(log.error).toHaveBeenCalled(), { timeout: 5000 });
      expect(vi.mocked(log.error).mock.calls[0]![0]).toMatchObject({
        problem: expect.stringContaining('tenant "demo", field subdomain: appears twice'),
      });
      expect(registry.bySubdomain('neu')).toBeDefined();
      expect(registry.tenants).toHaveLength(6);
    } finally {
      stop();
    }
  });
});
