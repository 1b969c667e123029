import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CONSOLE_PATH,
  type ConsolePageState,
  type ConsoleServerBundle,
  escapeHtml,
} from '@concierge/contracts';

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
}

const ENTRY = 'src/entry-client.tsx';

export interface ConsoleBuild {
  /** Where the built scripts and stylesheets are, served below CONSOLE_ASSETS_PATH. */
  assetsDir: string;
  /** A whole HTML document for a page's state. */
  document(state: ConsolePageState): string;
}

/**
 * Loads the built console (apps/console): its server renderer and the client manifest, as
 * ssr/portal-bundle.ts loads the portal. A build artefact, never a source dependency. The document is
 * made here: the console's scripts and stylesheets are named only in it, so no tenant page can load
 * them (the bench checks that a tenant's page names nothing below CONSOLE_PATH).
 */
export async function loadConsoleBuild(distDir: string): Promise<ConsoleBuild> {
  const clientDir = join(distDir, 'client');
  let manifest: Record<string, ManifestChunk>;
  try {
    manifest = JSON.parse(await readFile(join(clientDir, '.vite', 'manifest.json'), 'utf8'));
  } catch {
    throw new Error(`The console is not built (no ${clientDir}/.vite/manifest.json): run "npm run build".`);
  }
  const entry = manifest[ENTRY];
  if (!entry) throw new Error(`The console manifest lacks ${ENTRY}: rebuild the console.`);
  const bundle = (await import(
    pathToFileURL(join(distDir, 'server', 'entry-server.js')).href
  )) as ConsoleServerBundle;
  const chunksOf = (key: string, seen = new Set<string>()): ManifestChunk[] => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return [];
    seen.add(key);
    return [chunk, ...(chunk.imports ?? []).flatMap((child) => chunksOf(child, seen))];
  };
  const chunks = chunksOf(ENTRY);
  const asset = (file: string) => `${CONSOLE_PATH}/${file}`;
  const stylesheets = [...new Set(chunks.flatMap((chunk) => chunk.css ?? []))]
    .map((file) => `<link rel="stylesheet" href="${asset(file)}">`)
    .join('');
  const preloads = chunks
    .slice(1)
    .map((chunk) => `<link rel="modulepreload" href="${asset(chunk.file)}">`)
    .join('');
  const script = `<script type="module" src="${asset(entry.file)}"></script>`;
  return {
    assetsDir: join(clientDir, 'assets'),
    document(state) {
      const page = bundle.renderConsolePage(state);
      const attributes = Object.entries(page.htmlAttributes ?? {})
        .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
        .join('');
      return (
        `<!doctype html><html lang="${state.language}"${attributes}><head><meta charset="utf-8">` +
        '<meta name="viewport" content="width=device-width, initial-scale=1">' +
        '<meta name="robots" content="noindex">' +
        `<title>${escapeHtml(page.title)}</title>${stylesheets}${page.headStyles}${preloads}</head>` +
        `<body><div id="root">${page.html}</div>` +
        `<script type="application/json" id="${bundle.CONSOLE_STATE_ELEMENT_ID}">${bundle.serialiseConsoleState(state)}</script>` +
        `${script}</body></html>`
      );
    },
  };
}
