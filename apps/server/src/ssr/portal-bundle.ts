import { createHash } from 'node:crypto';
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
  /**
   * The page's one script element, inline: it starts the entry once the page has loaded. Its hash
   * is what the CSP allows it by (http/security-headers.ts).
   */
  startScript: { source: string; hash: string };
  /**
   * The stylesheets of a page: the entry's (what every page uses), then those of the page's chunks
   * (the register page's checkbox and dialog), in the order the browser adds them when a link leads
   * to the page.
   */
  stylesheetsFor(pageSource: string): string[];
  /** Every chunk a page needs before it can hydrate: entry, shared chunks and the page's own. */
  preloadsFor(pageSource: string): string[];
}

const ENTRY = 'src/entry-client.tsx';
const START = 'src/start-scripts.ts';

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
  const start = manifest[START];
  if (!entry || !start)
    throw new Error(`The portal manifest lacks ${ENTRY} or ${START}: rebuild the portal.`);
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

  /** A chunk and every chunk it imports, each once. */
  const chunksOf = (key: string, seen = new Set<string>()): ManifestChunk[] => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return [];
    seen.add(key);
    return [chunk, ...(chunk.imports ?? []).flatMap((child) => chunksOf(child, seen))];
  };
  // Inline, so that the page asks for nothing before its first screen but its stylesheets and logo.
  const startSource = (await readFile(join(clientDir, start.file), 'utf8')).trim();
  if (/<\/script/i.test(startSource))
    throw new Error(`${start.file} cannot stand inline: it holds "</script"`);
  const startHash = `'sha256-${createHash('sha256').update(startSource).digest('base64')}'`;
  const entryChunks = chunksOf(ENTRY);
  const cssOf = (chunks: ManifestChunk[]) => chunks.flatMap((chunk) => chunk.css ?? []);
  const entryStylesheets = cssOf(entryChunks);
  return {
    bundle,
    clientDir,
    entryScript: `/${entry.file}`,
    startScript: { source: startSource, hash: startHash },
    stylesheetsFor(pageSource) {
      const files = [...entryStylesheets, ...cssOf(chunksOf(pageSource))];
      return [...new Set(files)].map((file) => `/${file}`);
    },
    preloadsFor(pageSource) {
      const files = [...entryChunks, ...chunksOf(pageSource)].map((chunk) => chunk.file);
      return [...new Set(files)].filter((file) => file !== entry.file).map((file) => `/${file}`);
    },
  };
}
