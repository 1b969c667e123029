import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Language } from '@concierge/contracts';

/** What the portal's server bundle (apps/portal/src/entry-server.tsx) exports, as this server uses it. */
export interface PortalServerBundle {
  /** Every page module loaded; renderPage needs no further import after it. */
  pagesReady(): Promise<unknown>;
  renderPage(
    url: string,
    state: { config: unknown; language: Language; messages: unknown },
  ): Promise<{ html: string; title: string; pageSource: string; isNotFound: boolean }>;
  /** The texts one page needs (`common` and the route's parts), inlined into it. */
  messagesFor(pathname: string, language: Language): unknown;
  /** Named parts of a dictionary, for a page reached in the browser; null when a name is unknown. */
  messageParts(language: Language, names: string[]): unknown | null;
  /** Where a URL must go before it renders (a 302), or null. */
  pageRedirect(pathname: string, search: string): string | null;
  serialisePageState(state: unknown): string;
  PAGE_STATE_ELEMENT_ID: string;
}

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
  const bundle = (await import(
    pathToFileURL(join(distDir, 'server', 'entry-server.js')).href
  )) as PortalServerBundle;
  await bundle.pagesReady();

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
