// What a browser downloads for /login, measured from the build rather than guessed: the client
// manifest names every chunk the page needs, and gzip at level 9 approximates what a CDN or the
// reverse proxy sends over the wire.
import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { constants, gzipSync } from 'node:zlib';

export const ENTRY = 'src/entry-client.tsx';
export const LOGIN_PAGE = 'src/pages/Login/index.tsx';

/**
 * @typedef {{ file: string, imports?: string[], css?: string[] }} ManifestChunk
 * @typedef {{ file: string, kind: 'js' | 'css', bytes: number, gzip: number }} MeasuredFile
 */

/** @param {string | Buffer} content */
export function gzipSize(content) {
  return gzipSync(content, { level: constants.Z_BEST_COMPRESSION }).length;
}

/**
 * Every file /login loads: the entry and the page, their static imports followed recursively (the
 * server names exactly these to the start script, which travels inside the page's HTML), and the CSS
 * of every chunk visited. Only the entry has CSS
 * today; counting the others too keeps the budget honest if a page ever gets its own stylesheet.
 * @param {Record<string, ManifestChunk>} manifest
 * @returns {string[]} file paths relative to the client build directory
 */
export function loginFiles(manifest) {
  const files = new Set();
  const seen = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`The client manifest has no chunk ${key}`);
    // The page imports the entry back, so the walk must stop at chunks already seen.
    if (seen.has(key)) return;
    seen.add(key);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const child of chunk.imports ?? []) visit(child);
  };
  visit(ENTRY);
  visit(LOGIN_PAGE);
  return [...files];
}

/**
 * @param {string} clientDir apps/portal/dist/client
 * @returns {{ files: MeasuredFile[], js: { bytes: number, gzip: number }, css: { bytes: number, gzip: number } }}
 */
export function measureLoginBundle(clientDir) {
  const manifest = JSON.parse(readFileSync(join(clientDir, '.vite', 'manifest.json'), 'utf8'));
  const files = loginFiles(manifest).map((file) => {
    const content = readFileSync(join(clientDir, file));
    const extension = extname(file);
    if (extension !== '.js' && extension !== '.css') throw new Error(`Unexpected asset type: ${file}`);
    return { file, kind: extension.slice(1), bytes: content.length, gzip: gzipSize(content) };
  });
  const total = (kind) =>
    files
      .filter((entry) => entry.kind === kind)
      .reduce((sum, entry) => ({ bytes: sum.bytes + entry.bytes, gzip: sum.gzip + entry.gzip }), {
        bytes: 0,
        gzip: 0,
      });
  return { files, js: total('js'), css: total('css') };
}

/**
 * The /assets/ files a rendered page links (stylesheets, the start script, and the entry and chunks
 * it names in data-entry and data-preloads). Compared with the manifest walk it shows whether the
 * budget counts what the server really makes browsers load.
 * @param {string} html
 * @returns {string[]} paths like assets/entry-client-….js
 */
export function assetsLinkedFrom(html) {
  const linked = new Set();
  for (const match of html.matchAll(/(?:src|href|data-entry|data-preloads)="([^"]*)"/g)) {
    for (const url of match[1].split(' ')) {
      const asset = /^\/(assets\/[^?#]+)/.exec(url);
      if (asset) linked.add(asset[1]);
    }
  }
  return [...linked];
}
