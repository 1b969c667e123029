// Brings a fresh clone to a runnable state: installs the npm packages when they are missing or
// older than the lock file, builds the browser bundles when their sources are newer, and compiles
// the Node apps (scripts/build-node-apps.mjs) when theirs are.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newestMtime, staleNodeApps } from './build-node-apps.mjs';

export const root = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export function run(command, args, options = {}) {
  execFileSync(command, args, { cwd: root, stdio: 'inherit', ...options });
}

export function ensureInstalled() {
  const installed = join(root, 'node_modules', '.package-lock.json');
  if (
    !existsSync(installed) ||
    statSync(installed).mtimeMs < statSync(join(root, 'package-lock.json')).mtimeMs
  ) {
    console.log('Installing npm packages (npm ci)…');
    run(npm, ['ci', '--no-audit', '--no-fund']);
  }
}

const bundles = [
  {
    workspace: '@concierge/portal',
    output: 'apps/portal/dist/server/entry-server.js',
    sources: ['apps/portal/src', 'apps/portal/vite.config.ts', 'packages/contracts/src'],
  },
  {
    workspace: '@concierge/console',
    output: 'apps/console/dist/server/entry-server.js',
    sources: ['apps/console/src', 'apps/console/vite.config.ts', 'packages/contracts/src'],
  },
  {
    workspace: '@concierge/property-portal',
    output: 'apps/property-portal/dist/client/index.html',
    sources: ['apps/property-portal/src', 'apps/property-portal/index.html', 'packages/oidc-client/src'],
  },
];

/**
 * Every build is a production build, whatever NODE_ENV the caller has: Vite respects one set, and a
 * portal built under Vitest's NODE_ENV=test (a test starting `npm start` on stale builds) rendered
 * with React's development JSX, which the production image does not have ("jsxDEV is not a function").
 */
const buildEnv = { ...process.env, NODE_ENV: 'production' };

export function ensureBuilt({ force = false } = {}) {
  for (const bundle of bundles) {
    const built = newestMtime(join(root, bundle.output));
    const changed = Math.max(...bundle.sources.map((source) => newestMtime(join(root, source))));
    if (force || built === 0 || changed > built) {
      console.log(`Building ${bundle.workspace}…`);
      run(npm, ['run', 'build', '--workspace', bundle.workspace], { env: buildEnv });
    }
  }
  // The Node apps: compiled in a child process, so that this stays synchronous like the above.
  const nodeApps = force ? [] : staleNodeApps();
  if (force || nodeApps.length > 0) {
    console.log(`Compiling the Node apps (${force ? 'all' : nodeApps.join(', ')})…`);
    run(process.execPath, [join(root, 'scripts/build-node-apps.mjs'), ...nodeApps], { env: buildEnv });
  }
}
