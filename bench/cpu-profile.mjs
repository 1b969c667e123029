// Where the server's main thread spends its time, from a V8 CPU profile (`node --cpu-prof`), summed
// by what the code belongs to: Mantine, react-dom, the portal's page code, the server's own code, the
// database client, Fastify and other packages, Node's fetch (the provider calls), the rest of Node,
// zlib, the garbage collector. Node's own streams and events count for zlib or fetch when those are
// what they work for.
//
// The server imports npm packages from node_modules, so a frame's URL names its package. The portal's
// server renderer (apps/portal/dist/server) bundles Mantine with the pages (apps/portal/vite.config.ts)
// and has no source map: there a frame belongs to the top-level declaration it sits in (the bundle is
// not minified: each declaration starts a line of its own), and that declaration's name is looked up
// among the names @mantine/* and the portal's sources (with packages/contracts) declare. A frame with
// no script (a built-in, a native call) counts for the nearest caller that has one.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DECLARATION =
  /^(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:function\*?\s+|const\s+|let\s+|var\s+|class\s+)([A-Za-z_$][\w$]*)/;

/** Names declared at the top of the files under `dir` whose names end in one of `endings`. */
function declaredNames(dir, endings) {
  const names = new Set();
  const walk = (folder) => {
    let entries = [];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path);
      } else if (
        endings.some((ending) => entry.name.endsWith(ending)) &&
        !/\.test\.|\.d\.ts$/.test(entry.name)
      ) {
        for (const line of readFileSync(path, 'utf8').split('\n')) {
          const match = DECLARATION.exec(line);
          if (match) names.add(match[1]);
        }
      }
    }
  };
  walk(dir);
  return names;
}

/**
 * @param {string} root the repository root
 * @returns {(url: string, line: number) => 'mantine' | 'portal' | 'portal-bundle'} for a frame in
 *   the portal's server renderer: Mantine's, the portal's own, or a name neither (or both) declare
 */
function portalBundleAttribution(root) {
  const mantine = new Set();
  for (const name of ['core', 'hooks', 'form']) {
    for (const found of declaredNames(join(root, `node_modules/@mantine/${name}/esm`), ['.mjs'])) {
      mantine.add(found);
    }
  }
  const own = new Set([
    ...declaredNames(join(root, 'apps/portal/src'), ['.ts', '.tsx']),
    ...declaredNames(join(root, 'packages/contracts/src'), ['.ts']),
  ]);
  /** url → the bundle's top-level declarations: line (0-based) and name, in order */
  const files = new Map();
  const declarationsOf = (url) => {
    let found = files.get(url);
    if (!found) {
      found = [];
      const lines = readFileSync(url.startsWith('file://') ? fileURLToPath(url) : url, 'utf8').split('\n');
      lines.forEach((line, index) => {
        const match = DECLARATION.exec(line);
        if (match) found.push({ line: index, name: match[1] });
      });
      files.set(url, found);
    }
    return found;
  };
  return (url, line) => {
    const declarations = declarationsOf(url);
    let low = 0;
    let high = declarations.length - 1;
    let at = -1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (declarations[middle].line <= line) {
        at = middle;
        low = middle + 1;
      } else high = middle - 1;
    }
    if (at === -1) return 'portal-bundle';
    // Rollup renames a second declaration of a name `name$1`.
    const name = declarations[at].name.replace(/\$\d+$/, '');
    const isMantine = mantine.has(name);
    const isOwn = own.has(name);
    if (isMantine && !isOwn) return 'mantine';
    if (isOwn && !isMantine) return 'portal';
    return 'portal-bundle';
  };
}

/** node:_http_server → http, node:internal/streams/writable → streams, node:net → net. */
function nodeModuleOf(path) {
  const name = path.replace(/^node:(internal\/)?/, '').replace(/^_/, '');
  if (name.startsWith('http')) return 'node: http';
  if (name.startsWith('streams/') || name === 'stream') return 'node: streams';
  return `node: ${name.split('/')[0]}`;
}

const DATABASE_PACKAGES = /^(pg|pg-.+|postgres-.+|kysely)$/;
const FASTIFY_PACKAGES =
  /^(fastify|@fastify\/.+|find-my-way|avvio|light-my-request|fast-.+|pino.*|secure-json-parse|toad-cache|ajv.*|process-warning|abstract-logging|rfdc|json-schema-ref-resolver|safe-regex2|ret|proxy-addr|forwarded|ipaddr\.js)$/;

/**
 * @typedef {object} ProfileSummary
 * @property {number} sampledMs main-thread time the samples in the window stand for, idle left out
 * @property {Record<string, number>} shares category → share of the sampled busy time (0–1)
 * @property {Record<string, number>} packages within Fastify, other npm and Node core: the biggest, share each
 * @property {{ name: string, category: string, share: number }[]} topFunctions by self time
 * @property {number} renderShare share of busy time under react-dom's renderToString/…StaticMarkup
 */

/**
 * @param {any} profile a .cpuprofile (nodes, samples, timeDeltas, startTime in µs)
 * @param {{ root: string, fromUs: number, toUs: number }} window monotonic µs (process.hrtime)
 * @returns {ProfileSummary}
 */
export function summariseProfile(profile, { root, fromUs, toUs }) {
  const inPortalBundle = portalBundleAttribution(root);
  const serverBundle = `${join(root, 'apps/server/dist')}/`;
  const portalBundle = `${join(root, 'apps/portal/dist/server')}/`;
  /** @type {Map<number, any>} */
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  /** @type {Map<number, number>} */
  const parents = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);

  /** @type {Map<number, { category: string, pkg?: string }>} */
  const categories = new Map();
  const categoryOf = (/** @type {number} */ id) => {
    const known = categories.get(id);
    if (known) return known;
    const { functionName, url, lineNumber } = nodes.get(id).callFrame;
    /** @type {{ category: string, pkg?: string }} */
    let found;
    if (functionName === '(idle)') found = { category: 'idle' };
    else if (functionName === '(garbage collector)') found = { category: 'gc' };
    else if (functionName === '(program)' || functionName === '(root)') found = { category: 'program' };
    else if (!url) {
      const parent = parents.get(id);
      found = parent === undefined ? { category: 'program' } : categoryOf(parent);
    } else {
      const path = url.startsWith('file://') ? fileURLToPath(url) : url;
      const inModules = path.lastIndexOf('/node_modules/');
      if (path.startsWith(portalBundle)) found = { category: inPortalBundle(url, lineNumber) };
      else if (path.startsWith(serverBundle)) found = { category: 'server' };
      else if (inModules !== -1) {
        const parts = path.slice(inModules + '/node_modules/'.length).split('/');
        const pkg = parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
        if (pkg.startsWith('@mantine/')) found = { category: 'mantine' };
        else if (pkg === 'react-dom') found = { category: 'react-dom' };
        else if (pkg === 'react' || pkg === 'scheduler') found = { category: 'react' };
        else if (DATABASE_PACKAGES.test(pkg)) found = { category: 'pg' };
        else if (FASTIFY_PACKAGES.test(pkg)) found = { category: 'fastify', pkg };
        else found = { category: 'other-npm', pkg };
      } else if (path === 'node:zlib' || path.startsWith('node:internal/zlib')) found = { category: 'zlib' };
      else if (path.startsWith('node:internal/deps/undici/')) found = { category: 'fetch' };
      else if (path.startsWith('node:'))
        found = onBehalfOf(id) ?? { category: 'node', pkg: nodeModuleOf(path) };
      else found = { category: 'other', pkg: path };
    }
    categories.set(id, found);
    return found;
  };
  /**
   * Node's streams, events and buffers working for zlib (a brotliCompress is a stream) or for fetch
   * count as theirs: the nearest caller outside Node core decides. Any other caller (Fastify writing
   * an answer, say) leaves the work Node's.
   * @param {number} id
   */
  const onBehalfOf = (id) => {
    for (let parent = parents.get(id); parent !== undefined; parent = parents.get(parent)) {
      const { url } = nodes.get(parent).callFrame;
      if (
        !url ||
        (url.startsWith('node:') && !url.startsWith('node:internal/deps/undici/') && url !== 'node:zlib')
      )
        continue;
      const { category } = categoryOf(parent);
      return category === 'zlib' || category === 'fetch' ? { category } : undefined;
    }
    return undefined;
  };
  const isRender = new Map();
  const underRender = (/** @type {number} */ id) => {
    if (isRender.has(id)) return isRender.get(id);
    const { functionName, url } = nodes.get(id).callFrame;
    const parent = parents.get(id);
    const result =
      (/renderToString|renderToStaticMarkup/.test(functionName) && url.includes('/react-dom/')) ||
      (parent !== undefined && underRender(parent));
    isRender.set(id, result);
    return result;
  };

  /** @type {Record<string, number>} */
  const byCategory = {};
  /** @type {Record<string, number>} */
  const byPackage = {};
  /** @type {Map<string, { name: string, category: string, us: number }>} */
  const byFunction = new Map();
  let busyUs = 0;
  let renderUs = 0;
  let at = profile.startTime;
  for (let index = 0; index < profile.samples.length; index += 1) {
    at += profile.timeDeltas[index];
    // A sample stands for the time until the next one.
    const weight = profile.timeDeltas[index + 1] ?? 0;
    if (at < fromUs || at >= toUs) continue;
    const id = profile.samples[index];
    const { category, pkg } = categoryOf(id);
    if (category === 'idle') continue;
    busyUs += weight;
    byCategory[category] = (byCategory[category] ?? 0) + weight;
    if (pkg) byPackage[pkg] = (byPackage[pkg] ?? 0) + weight;
    if (underRender(id)) renderUs += weight;
    const { functionName, url, lineNumber } = nodes.get(id).callFrame;
    const key = `${functionName}|${url}|${lineNumber}`;
    const entry = byFunction.get(key) ?? { name: functionName || '(anonymous)', category, us: 0 };
    entry.us += weight;
    byFunction.set(key, entry);
  }
  const share = (us) => (busyUs > 0 ? us / busyUs : Number.NaN);
  return {
    sampledMs: busyUs / 1000,
    shares: Object.fromEntries(Object.entries(byCategory).map(([name, us]) => [name, share(us)])),
    packages: Object.fromEntries(
      Object.entries(byPackage)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 10)
        .map(([name, us]) => [name, share(us)]),
    ),
    topFunctions: [...byFunction.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, 12)
      .map(({ name, category, us }) => ({ name, category, share: share(us) })),
    renderShare: share(renderUs),
  };
}
