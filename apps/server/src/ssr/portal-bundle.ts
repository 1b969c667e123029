import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PortalServerBundle } from '@concierge/contracts';

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}

export interface PortalBuild {
  bundle: PortalServerBundle;
  clientDir: string;
  entryScript: string;
  stylesheets: string[];
  /** Every chunk a page needs before it can hydrate: entry, shared chunks and the page's own. */
  preloadsFor(pageSource: string): string[];
}

const ENTRY = 'src/entry-client.tsx';

/**
 * Loads the built portal: the server renderer and the client manifest. The portal is a build
 * artefact here, not a source dependency: the server never imports portal code at compile time.
 */
export async function loadPortalBuild(distDir: string): Promise<PortalBuild> {
  const clientDir = join(distDir, 'client');
  let manifestText: string;
  try {
    manifestText = await readFile(join(clientDir, '.vite', 'manifest.json'), 'utf8');
  } catch {
    throw new Error(`The portal is not built (no ${clientDir}/.vite/manifest.json): run "npm run build".`);
  }
  const manifest = JSON.parse(manifestText) as Record<string, ManifestChunk>;
  const entry = manifest[ENTRY];
  if (!entry) throw new Error(`The portal manifest has no ${ENTRY}`);
  // The bundle's exports are PortalServerBundle: the portal checks that at its typecheck (entry-server.seam.ts).
  const bundle = (await import(
    pathToFileURL(join(distDir, 'server', 'entry-server.js')).href
  )) as PortalServerBundle;
  await bundle.pagesReady();
  // A page whose chunk the manifest does not name would render without its preloads: say so at start.
  const unknownSources = bundle.routes.filter((route) => !manifest[route.source]);
  if (unknownSources.length > 0) {
    const names = unknownSources.map((route) => `${route.path} (${route.source})`).join(', ');
    throw new Error(`The portal manifest has no chunk for ${names}: rebuild the portal ("npm run build").`);
  }

  const chunkFiles = (key: string, seen = new Set<string>()): string[] => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return [];
    seen.add(key);
    return [chunk.file, ...(chunk.imports ?? []).flatMap((child) => chunkFiles(child, seen))];
  };
  const entryFiles = new Set(chunkFiles(ENTRY));
  return {
    bundle,
    clientDir,
    entryScript: `/${entry.file}`,
    stylesheets: (entry.css ?? []).map((file) => `/${file}`),
    preloadsFor(pageSource) {
      const files = [...entryFiles, ...chunkFiles(pageSource)];
      return [...new Set(files)].filter((file) => file !== entry.file).map((file) => `/${file}`);
    },
  };
}
