import { loadTenantRegistry, RegistryError } from '../tenants/load-registry';
import { CliError } from './cli-error';
import type { CliOutput } from './command-parts';

/**
 * `tenants check [FILE]`: the tenant registry validated as the server validates it at start (its
 * schema, the cross-checks, the brand assets beside it), without a server: an operator checks an
 * edited file before a rollout carries it to the instances, which would refuse to start with it.
 */
export async function checkTenants(output: CliOutput, file: string): Promise<void> {
  try {
    const registry = await loadTenantRegistry(file);
    const names = registry.tenants.map((tenant) => tenant.subdomain);
    output.out(`${file}: ${names.length} tenants, valid (${names.join(', ')})`);
  } catch (error) {
    if (error instanceof RegistryError) throw new CliError(error.message, 1);
    throw error;
  }
}
