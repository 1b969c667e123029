import { watch } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { loadTenantRegistry, RegistryError } from './load-registry';
import type { TenantRegistry, TenantRegistryOptions } from './tenant-registry';

/** Editors and deployments write a file in several steps: the reload waits for them to settle. */
const SETTLE_MS = 300;

/**
 * A tenant added or a brand changed takes effect without a restart (issue 29): the instance
 * watches the registry file's folder — which also sees an editor's save-by-rename and a mounted
 * configuration's symlink swap — and loads the file again when its text has changed. It is checked
 * as at start; a file that fails is logged with what is wrong, and the registry in use stays. Each
 * instance watches for itself: every instance that sees the new file serves it within a second.
 * Returns the end of the watch.
 */
export async function watchTenantRegistry(
  registry: TenantRegistry,
  file: string,
  options: TenantRegistryOptions,
  log: FastifyBaseLogger,
): Promise<() => void> {
  let inUse = await readFile(file, 'utf8');
  let timer: NodeJS.Timeout | undefined;
  let reloading = Promise.resolve();
  const reload = async () => {
    const text = await readFile(file, 'utf8').catch(() => inUse);
    if (text === inUse) return;
    try {
      registry.replaceWith(await loadTenantRegistry(file, options));
      inUse = text;
      log.info({ tenants: registry.tenants.length }, 'tenant registry reloaded');
    } catch (error) {
      if (!(error instanceof RegistryError)) throw error;
      inUse = text;
      log.error(
        { problem: error.message },
        'tenant registry not reloaded: the file has a problem, the one in use stays',
      );
    }
  };
  // Not recursive: a tenant's brand files are read when they are served; only the file is watched.
  const watcher = watch(dirname(file), () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      reloading = reloading.then(reload).catch((error: unknown) => {
        log.error({ err: error }, 'tenant registry: the reload failed');
      });
    }, SETTLE_MS);
  });
  watcher.on('error', (error) => log.error({ err: error }, 'tenant registry: the watch ended'));
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}
