// Compiles the Node apps (server, provider, demo relying party, mail catcher) into plain JavaScript,
// one bundle per entry in apps/<app>/dist/, which production, `npm start`, the bench and the browser
// tests run with `node` — no TypeScript loader. The workspace packages (@concierge/*) and the JSON
// the code imports are bundled in; npm packages stay imports, so native modules (@node-rs/argon2)
// and packages that read their own files (oidc-provider) load from node_modules as they always did.
// Paths the code builds from import.meta.url are the same from src/x.ts and from dist/main.js: both
// sit one folder below the app.
//
//   node scripts/build-node-apps.mjs [--if-stale] [app …]   (default: every app, built anew)
//
// Used by scripts/prepare.mjs (ensureBuilt: npm start, npm test, the bench, CI), `npm run build`,
// scripts/stack.mjs and the server tests' embedded provider, each building only what is stale; and
// by scripts/cluster.test.ts, which builds a variant of the server with the same options (buildVariant).
import { existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const thisFile = fileURLToPath(import.meta.url);

/**
 * V8 heap settings the server is sized for (docs/decisions.md, "Compiled Node apps and memory"):
 * semi-spaces of 8 MiB instead of 16, and an old generation capped at 256 MiB (about six times what
 * the server keeps alive), so that V8 collects it early instead of letting garbage grow towards a
 * limit derived from the machine's memory. Whoever starts the server passes them (nodeArguments
 * below; apps/server/package.json's start script repeats them).
 */
export const SERVER_NODE_OPTIONS = ['--max-semi-space-size=8', '--max-old-space-size=256'];

/**
 * @typedef {object} NodeApp
 * @property {string} name
 * @property {string} folder the workspace folder, e.g. apps/server
 * @property {{ source: string, output: string }[]} entries source → compiled file, relative to the root
 * @property {string[]} nodeOptions flags for `node` when the app's main entry is started
 */

/** @type {NodeApp[]} */
export const NODE_APPS = [
  {
    name: 'server',
    folder: 'apps/server',
    entries: [
      { source: 'apps/server/src/main.ts', output: 'apps/server/dist/main.js' },
      // The operators' admin CLI (npm run admin --workspace @concierge/server).
      { source: 'apps/server/src/cli/main.ts', output: 'apps/server/dist/cli.js' },
    ],
    nodeOptions: SERVER_NODE_OPTIONS,
  },
  {
    name: 'provider',
    folder: 'apps/provider',
    entries: [{ source: 'apps/provider/src/main.ts', output: 'apps/provider/dist/main.js' }],
    nodeOptions: [],
  },
  {
    name: 'property-portal',
    folder: 'apps/property-portal',
    // Its browser app is Vite's, in dist/client (apps/property-portal/vite.config.ts).
    entries: [{ source: 'apps/property-portal/src/main.ts', output: 'apps/property-portal/dist/main.js' }],
    nodeOptions: [],
  },
  {
    name: 'mail-catcher',
    folder: 'apps/mail-catcher',
    entries: [{ source: 'apps/mail-catcher/src/main.ts', output: 'apps/mail-catcher/dist/main.js' }],
    nodeOptions: [],
  },
];

/** What a bundle may contain besides its app's own sources. */
const SHARED_SOURCES = [
  'packages/contracts/src',
  'packages/database/src',
  'packages/observability/src',
  'packages/oidc-client/src',
];

/** @param {string} name */
function appNamed(name) {
  const app = NODE_APPS.find((candidate) => candidate.name === name);
  if (!app) throw new Error(`Unknown Node app "${name}" (known: ${NODE_APPS.map((a) => a.name).join(', ')})`);
  return app;
}

/**
 * The arguments for `node` that start an app's compiled main entry (absolute path), flags first.
 * @param {string} name e.g. 'server'
 * @param {string} [entry] another compiled main of the app (absolute), e.g. a variant buildVariant made
 * @returns {string[]}
 */
export function nodeArguments(name, entry) {
  return [...appNamed(name).nodeOptions, entry ?? compiledMain(name)];
}

/**
 * The compiled main entry of an app, an absolute path (apps/<app>/dist/main.js).
 * @param {string} name
 */
export function compiledMain(name) {
  return join(root, appNamed(name).entries[0].output);
}

/**
 * The newest modification time under a path (node_modules and dist left out): what is stale is older.
 * @param {string} path
 */
export function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path).reduce(
    (newest, name) =>
      name === 'node_modules' || name === 'dist' ? newest : Math.max(newest, newestMtime(join(path, name))),
    stats.mtimeMs,
  );
}

/** @param {string} file */
function mtimeOf(file) {
  return existsSync(file) ? statSync(file).mtimeMs : 0;
}

/**
 * The apps whose bundles are missing or older than a source they may contain (their own src, the
 * shared packages, their package.json) or than this build script.
 * @param {string[]} [names] default: every app
 * @returns {string[]}
 */
export function staleNodeApps(names) {
  const apps = names ? names.map(appNamed) : NODE_APPS;
  return apps
    .filter((app) => {
      const built = Math.min(...app.entries.map((entry) => mtimeOf(join(root, entry.output))));
      if (built === 0) return true;
      const sources = [`${app.folder}/src`, `${app.folder}/package.json`, ...SHARED_SOURCES];
      const changed = Math.max(
        mtimeOf(thisFile),
        ...sources.map((source) => newestMtime(join(root, source))),
      );
      return changed > built;
    })
    .map((app) => app.name);
}

/**
 * Bare imports other than the workspace packages stay imports: Node resolves them from node_modules
 * at run time, exactly as it did for the sources under tsx.
 * @type {import('esbuild').Plugin}
 */
const npmPackagesExternal = {
  name: 'npm-packages-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@concierge/') ? undefined : { path: args.path, external: true },
    );
  },
};

/** Builds in one process run one after the other: each stops esbuild's service when done. */
let previousBuild = Promise.resolve();

/**
 * Runs `build` once the builds before it in this process are done.
 * @template T
 * @param {() => Promise<T>} build
 * @returns {Promise<T>}
 */
function afterPreviousBuilds(build) {
  const next = previousBuild.then(build);
  previousBuild = next.then(
    () => undefined,
    () => undefined,
  );
  return next;
}

/**
 * Builds apps: the named ones (default every one), or only those of them that are stale.
 * @param {{ apps?: string[], ifStale?: boolean, quiet?: boolean }} [options]
 * @returns {Promise<string[]>} the names of the apps built
 */
export function buildNodeApps(options = {}) {
  return afterPreviousBuilds(() => buildNow(options));
}

/**
 * Builds a variant of an app: its entries with the apps' esbuild options, to outputs of the caller's,
 * with the caller's esbuild plugins before ours (scripts/cluster.test.ts builds the server with one
 * more migration and another version into apps/server/dist-next-<pid>/). An output must sit one folder
 * below the app, as dist/ does: the code builds paths from import.meta.url.
 * @param {NodeApp['entries']} entries
 * @param {{ plugins?: import('esbuild').Plugin[], quiet?: boolean }} [options]
 * @returns {Promise<void>}
 */
export function buildVariant(entries, { plugins = [], quiet = false } = {}) {
  return afterPreviousBuilds(() => withEsbuild((esbuild) => buildEntries(esbuild, entries, quiet, plugins)));
}

/** @param {{ apps?: string[], ifStale?: boolean, quiet?: boolean }} options */
async function buildNow({ apps, ifStale = false, quiet = false }) {
  const names = ifStale ? staleNodeApps(apps) : (apps ?? NODE_APPS.map((app) => app.name));
  if (names.length === 0) return [];
  const entries = names.flatMap((name) => appNamed(name).entries);
  await withEsbuild((esbuild) => buildEntries(esbuild, entries, quiet));
  return names;
}

/**
 * @template T
 * @param {(esbuild: typeof import('esbuild')) => Promise<T>} use
 * @returns {Promise<T>}
 */
async function withEsbuild(use) {
  // Imported only when there is something to build: running built apps needs no esbuild.
  const esbuild = await import('esbuild');
  try {
    return await use(esbuild);
  } finally {
    // esbuild keeps a service process until told otherwise; a launcher must not carry it along.
    await esbuild.stop();
  }
}

/**
 * @param {typeof import('esbuild')} esbuild
 * @param {NodeApp['entries']} entries
 * @param {boolean} quiet
 * @param {import('esbuild').Plugin[]} [plugins] a variant's, before ours
 */
async function buildEntries(esbuild, entries, quiet, plugins = []) {
  await Promise.all(
    entries.map(async (entry) => {
      const outfile = join(root, entry.output);
      const result = await esbuild.build({
        absWorkingDir: root,
        entryPoints: [join(root, entry.source)],
        outfile,
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        sourcemap: 'linked',
        // Class and function names survive (stack traces, logs, libraries that read them).
        keepNames: true,
        legalComments: 'none',
        logLevel: 'warning',
        plugins: [...plugins, npmPackagesExternal],
        // Written below under a temporary name first and then renamed, so that a process starting
        // the app meanwhile (a test, a second build) never reads half a bundle.
        write: false,
      });
      mkdirSync(dirname(outfile), { recursive: true });
      for (const file of result.outputFiles) {
        const temporary = `${file.path}.${process.pid}.tmp`;
        writeFileSync(temporary, file.contents);
        renameSync(temporary, file.path);
      }
      if (!quiet) console.log(`Built ${relative(root, outfile)}`);
    }),
  );
}

if (process.argv[1] === thisFile) {
  const args = process.argv.slice(2);
  const names = args.filter((arg) => !arg.startsWith('--'));
  await buildNodeApps({ apps: names.length > 0 ? names : undefined, ifStale: args.includes('--if-stale') });
}
