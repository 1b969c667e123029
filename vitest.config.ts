import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

/** Test files (paths from the repository root) that replace a module with vi.mock. */
function filesMockingModules(folder: string, recursive = true): string[] {
  return (readdirSync(folder, { recursive, encoding: 'utf8' }) as string[])
    .filter((file) => /\.test\.tsx?$/.test(file))
    .map((file) => join(folder, file))
    .filter((path) => readFileSync(path, 'utf8').includes('vi.mock('));
}

const PORTAL_ROOT = 'apps/portal';
/**
 * The portal's files that replace a module with vi.mock, found by reading them: such a mock holds
 * only in a module graph of its own, so they run isolated (the project "portal (module mocks)").
 */
const PORTAL_MOCKING_MODULES = filesMockingModules(join(PORTAL_ROOT, 'src')).map((path) =>
  relative(PORTAL_ROOT, path),
);
/**
 * One timeout policy for every project: a test waits for conditions, never for time, so a limit only
 * ends a hang — and a busy machine (CI, a loaded run) must not turn slowness into failures. The
 * portal projects had Vitest's implicit 5 s, under which 71 tests timed out at load 18–44.
 */
const TIMEOUTS = { testTimeout: 30_000, hookTimeout: 60_000 } as const;
const portal = { environment: 'jsdom', setupFiles: ['src/test/setup.ts'], ...TIMEOUTS } as const;

// The node project runs without isolation and has no project for module mocks: a mock there would
// silently not hold, so the run stops at once instead.
const nodeMocks = [
  ...readdirSync('packages').flatMap((name) => filesMockingModules(join('packages', name, 'src'))),
  ...['server', 'provider', 'mail-catcher', 'property-portal'].flatMap((name) =>
    filesMockingModules(join('apps', name, 'src')),
  ),
  ...filesMockingModules('scripts', false),
];
if (nodeMocks.length > 0) {
  throw new Error(
    `vi.mock in ${nodeMocks.join(', ')}: the node project's files share their modules (isolate: false); pass the dependency in instead.`,
  );
}

// One run for every unit and integration test; browser tests live in e2e/ (Playwright).
export default defineConfig({
  test: {
    // Vitest's default on two cores is one file at a time, yet most files spend their time waiting
    // (PostgreSQL, the embedded provider over HTTP, child processes, the webhook lag of the recorded
    // cidaas). Measured on this 2-core machine: 165 s for the whole run against 228 s for the node
    // project alone, one file at a time. With three, the three longest files (they come first, and
    // all three mostly wait) left the cores 30–60 % idle for their first 20 s: 107 s for the files
    // against 96 s with four, and 97 s with five, Vitest alone. In `npm test` the typecheck runs
    // beside it and takes up that slack too (113 s either way). Waits in tests are for conditions,
    // so a busier machine makes them slower, not wrong.
    maxWorkers: 4,
    projects: [
      {
        test: {
          name: 'node',
          // The files of a worker share its loaded modules instead of importing the apps anew for
          // each file: the run is CPU-bound on two cores, and the imports were most of it (159 s
          // with isolation, 116 s without, 300 and 203 CPU-seconds). Files therefore leave no
          // global state behind: each opens its own databases, servers and registries, and none
          // mocks a module.
          isolate: false,
          environment: 'node',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/{server,provider,mail-catcher,property-portal}/src/**/*.test.ts',
            'scripts/*.test.ts',
          ],
          ...TIMEOUTS,
          // In this order: the shared embedded provider keeps its data on the run's PostgreSQL.
          globalSetup: ['scripts/test-database.mjs', 'apps/server/src/test-support/shared-provider-setup.ts'],
        },
      },
      // The portal's other files share their worker's loaded React and Mantine too: 40 s →
      // 20 s for its files, 78 → 38 CPU-seconds. Each renders into a fresh document body (Testing
      // Library's cleanup) and sets its language itself.
      {
        root: PORTAL_ROOT,
        test: {
          ...portal,
          name: 'portal',
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: [...configDefaults.exclude, ...PORTAL_MOCKING_MODULES],
          isolate: false,
        },
      },
      // A shared graph would hand these the real module whenever another file had loaded it first.
      {
        root: PORTAL_ROOT,
        test: { ...portal, name: 'portal (module mocks)', include: PORTAL_MOCKING_MODULES },
      },
      // The console's pages (apps/console): rendered as the server renders them, in jsdom.
      {
        root: 'apps/console',
        test: {
          environment: 'jsdom',
          setupFiles: ['src/test/setup.ts'],
          ...TIMEOUTS,
          name: 'console',
          include: ['src/**/*.test.{ts,tsx}'],
        },
      },
    ],
  },
});
