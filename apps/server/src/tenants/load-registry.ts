import { access, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { z } from 'zod';
import { type RegistryFile, registryFileSchema } from './registry-file';
import { TenantRegistry, type TenantRegistryOptions } from './tenant-registry';

/** A registry file that cannot be used; the message names the tenant and the field. */
export class RegistryError extends Error {
  override name = 'RegistryError';
}

/**
 * Reads and validates the tenant registry at start-up. Any problem stops the server with a message
 * that names the file, the tenant and the field, so a bad deployment never serves a half-branded portal.
 */
export async function loadTenantRegistry(
  file: string,
  options: TenantRegistryOptions = {},
): Promise<TenantRegistry> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new RegistryError(`Tenant registry ${file} cannot be read: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new RegistryError(`Tenant registry ${file} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = registryFileSchema.safeParse(json);
  if (!parsed.success) throw new RegistryError(`Tenant registry ${file}:\n  ${describe(json, parsed.error)}`);
  const registry = parsed.data;
  const problems = [...crossChecks(registry), ...(await missingAssets(registry, dirname(file)))];
  if (problems.length > 0) throw new RegistryError(`Tenant registry ${file}:\n  ${problems.join('\n  ')}`);
  return new TenantRegistry(registry, dirname(file), options);
}

function describe(json: unknown, error: z.ZodError): string {
  const tenants = (json as { tenants?: { subdomain?: unknown }[] } | null)?.tenants;
  return error.issues
    .map((issue) => {
      const [first, index, ...rest] = issue.path;
      if (first === 'tenants' && typeof index === 'number') {
        const name = tenants?.[index]?.subdomain;
        const who = typeof name === 'string' ? `tenant "${name}"` : `tenant #${index + 1}`;
        return `${who}, field ${rest.join('.') || '(entry)'}: ${issue.message}`;
      }
      return `field ${issue.path.join('.') || '(file)'}: ${issue.message}`;
    })
    .join('\n  ');
}

function crossChecks(registry: RegistryFile): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const tenant of registry.tenants) {
    if (seen.has(tenant.subdomain))
      problems.push(`tenant "${tenant.subdomain}", field subdomain: appears twice`);
    seen.add(tenant.subdomain);
  }
  for (const [environment, subdomain] of Object.entries(registry.defaultTenants)) {
    if (!seen.has(subdomain)) problems.push(`field defaultTenants.${environment}: no tenant "${subdomain}"`);
  }
  return problems;
}

async function missingAssets(registry: RegistryFile, folder: string): Promise<string[]> {
  const assets: { who: string; field: string; path: string }[] = [
    { who: 'registry', field: 'specialLogo', path: registry.specialLogo },
    ...registry.tenants.flatMap((tenant) => [
      { who: `tenant "${tenant.subdomain}"`, field: 'brand.logo', path: tenant.brand.logo },
      ...(tenant.brand.stylesheet
        ? [{ who: `tenant "${tenant.subdomain}"`, field: 'brand.stylesheet', path: tenant.brand.stylesheet }]
        : []),
    ]),
  ];
  const checks = await Promise.all(
    assets.map(async (asset) => {
      try {
        await access(join(folder, asset.path));
        return null;
      } catch {
        return `${asset.who}, field ${asset.field}: file ${asset.path} not found in ${folder}`;
      }
    }),
  );
  return checks.filter((problem): problem is string => problem !== null);
}
