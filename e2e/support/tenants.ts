import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface DemoTenant {
  subdomain: string;
  displayName: string;
  brand: { primaryColor: string; stylesheet?: string };
  flags?: Record<string, boolean>;
}

/** The shipped demo tenants, read from the registry the stack serves. */
export const demoTenants: DemoTenant[] = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../tenants/tenants.json', import.meta.url)), 'utf8'),
).tenants;
