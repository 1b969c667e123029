// `npm test`: every test — typecheck, lint, unit and integration (Vitest, real databases and the real
// embedded provider over HTTP), then the browser tests (Playwright driving Debian's Chromium over
// the running system). Prints one closing line "N passed, N failed".
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeMemoryTempDir } from './memory-temp-dir.mjs';
import { ensureBuilt, ensureInstalled, root, run } from './prepare.mjs';
import { FULL_CHROMIUM, HEADLESS_CHROMIUM, testBrowserPath } from './test-browser.mjs';
import {
  REAL_CIDAAS_VARIANTS_FILE,
  readPlaywrightReport,
  readVitestReport,
  realCidaasLines,
} from './test-report.mjs';

const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const bin = (name) => join(root, 'node_modules', '.bin', name);

/**
 * Runs one step and says how it ended. A step that fails stops the run, unless `isContinued`: then
 * it is reported as failed and the run goes on (the browser tests still run after a failed unit test).
 */
function step(title, action, { isContinued = false } = {}) {
  const started = Date.now();
  const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
  console.log(`\n▶ ${title}`);
  try {
    action();
  } catch (error) {
    console.log(`✘ ${title} failed (${seconds()} s)`);
    if (!isContinued) throw error;
    failedStep ??= new Error(`${title} failed`);
    return;
  }
  console.log(`✔ ${title} (${seconds()} s)`);
}

/** Whether this run may install Debian's packages itself: root, with apt-get. */
const mayInstall = () => process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');

function aptInstall(pkg, purpose) {
  console.log(`Installing Debian’s ${pkg} for ${purpose} (apt-get install ${pkg})…`);
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', pkg], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

/** Installs a Debian package whose program is missing when we may, else says how. */
function ensureDebianPackage({ path, pkg, purpose, variable }) {
  if (existsSync(path)) return;
  if (mayInstall()) {
    aptInstall(pkg, purpose);
    return;
  }
  console.error(
    `${purpose[0].toUpperCase()}${purpose.slice(1)} need ${pkg} at ${path}. Install it with ` +
      `"sudo apt-get install -y ${pkg}" (Debian/Ubuntu)${variable ? `, or point ${variable} at another` : ''}.`,
  );
  process.exit(1);
}

/**
 * The browser tests' browser (scripts/test-browser.mjs): Debian's headless Chromium, installed
 * first when we may. Where it cannot be, they run in the whole browser, and the run says so. The
 * path reaches the Playwright config through CHROMIUM_PATH.
 */
function ensureTestBrowser() {
  const purpose = 'the browser tests';
  if (!process.env.CHROMIUM_PATH && !existsSync(HEADLESS_CHROMIUM) && mayInstall()) {
    try {
      aptInstall('chromium-headless-shell', purpose);
    } catch {
      console.log('Debian’s chromium-headless-shell could not be installed.');
    }
  }
  const path = testBrowserPath();
  if (path === FULL_CHROMIUM && !process.env.CHROMIUM_PATH) {
    console.log(
      `The browser tests run in ${FULL_CHROMIUM}; in Debian’s chromium-headless-shell they take about ` +
        'a fifth less time ("sudo apt-get install -y chromium-headless-shell").',
    );
  }
  ensureDebianPackage({
    path,
    pkg: path === HEADLESS_CHROMIUM ? 'chromium-headless-shell' : 'chromium',
    purpose,
    variable: 'CHROMIUM_PATH',
  });
  process.env.CHROMIUM_PATH = path;
}

// The cluster test (scripts/cluster.test.ts) runs three server instances behind nginx.
function ensureNginx() {
  ensureDebianPackage({ path: NGINX, pkg: 'nginx', purpose: 'the cluster tests', variable: 'NGINX_PATH' });
}

// The container image's test (scripts/container-image.test.ts) writes and unpacks the image with umoci.
function ensureUmoci() {
  ensureDebianPackage({
    path: '/usr/bin/umoci',
    pkg: 'umoci',
    purpose: 'the container image tests',
    variable: 'PATH',
  });
}

// The run's temporary files in memory where there is room (scripts/memory-temp-dir.mjs): every step
// and what it starts take TMPDIR from here.
const memoryTempDir = makeMemoryTempDir();
if (memoryTempDir) process.env.TMPDIR = memoryTempDir;
const reports = mkdtempSync(join(tmpdir(), 'concierge-test-'));
const counts = { passed: 0, failed: 0, skipped: 0, failures: [], skips: [] };
let failedStep;

function add(result) {
  counts.passed += result.passed;
  counts.failed += result.failed;
  counts.skipped += result.skipped;
  counts.failures.push(...result.failures);
  counts.skips.push(...result.skips);
}

/**
 * Starts a step beside the next ones, its output into a file: the typecheck (on a fresh clone here
 * 9–10 s of `tsc -b`, 18–19 CPU-seconds) would otherwise run alone before the tests. The returned
 * function waits for it, prints what it printed and reports it like any step; it throws when the
 * step failed.
 */
function startBeside(title, command, args) {
  const started = Date.now();
  const logFile = join(reports, `${title.replace(/\W+/g, '-')}.log`);
  const output = openSync(logFile, 'w');
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', output, output] });
  closeSync(output);
  const ended = new Promise((resolve) => {
    child.once('error', (error) => resolve(error.message));
    child.once('close', (code, signal) => resolve(code === 0 ? 0 : (signal ?? `exit code ${code}`)));
  });
  console.log(`\n▶ ${title} (beside the next steps)`);
  return async () => {
    const outcome = await ended;
    const printed = readFileSync(logFile, 'utf8');
    if (printed.trim()) process.stdout.write(`\n${printed}`);
    if (outcome !== 0) throw new Error(`${title} failed (${outcome})`);
    console.log(`✔ ${title} (${((Date.now() - started) / 1000).toFixed(1)} s, beside the next steps)`);
  };
}

const countVitest = (file) => add(readVitestReport(JSON.parse(readFileSync(file, 'utf8')), root));
const countPlaywright = (file) => add(readPlaywrightReport(JSON.parse(readFileSync(file, 'utf8'))));

/** Waits for the typecheck started beside the tests; undefined once it has been waited for. */
let finishTypecheck;
try {
  ensureInstalled();
  step('build', () => ensureBuilt({ force: true }));
  // One build of every project (tsconfig.json's references): shared packages are checked once, and
  // a second run checks only what changed.
  finishTypecheck = startBeside('typecheck', bin('tsc'), ['-b']);
  step('lint and format', () => run(bin('biome'), ['check', '.']));
  ensureNginx();
  ensureUmoci();
  const vitestReport = join(reports, 'vitest.json');
  // What a run against a real tenant found is written anew by this run's conformance suite.
  rmSync(join(root, REAL_CIDAAS_VARIANTS_FILE), { force: true });
  step(
    'unit and integration tests',
    () => {
      try {
        run(bin('vitest'), [
          'run',
          '--reporter=default',
          '--reporter=json',
          `--outputFile.json=${vitestReport}`,
        ]);
      } finally {
        if (existsSync(vitestReport)) countVitest(vitestReport);
      }
    },
    { isContinued: true },
  );
  const typecheck = finishTypecheck;
  finishTypecheck = undefined;
  await typecheck();
  ensureTestBrowser();
  const playwrightReport = join(reports, 'playwright.json');
  step('browser tests', () => {
    try {
      run(bin('playwright'), ['test', '--config', 'e2e/playwright.config.ts'], {
        env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport },
      });
    } finally {
      if (existsSync(playwrightReport)) countPlaywright(playwrightReport);
    }
  });
} catch (error) {
  failedStep = error;
} finally {
  // A step failed before the typecheck was waited for: it still reports, and leaves no process behind.
  if (finishTypecheck) {
    await finishTypecheck().catch((error) => {
      failedStep ??= error;
    });
  }
  rmSync(reports, { recursive: true, force: true });
  if (memoryTempDir) rmSync(memoryTempDir, { recursive: true, force: true });
}

// The conformance suite's third target (docs/cidaas-setup.md, section 9): skipped, never passed;
// when it ran, the variants of the recorded-cidaas double it found at the tenant.
const REAL_CIDAAS = [
  'CIDAAS_BASE_URL',
  'CIDAAS_CLIENT_ID',
  'CIDAAS_CLIENT_SECRET',
  'CIDAAS_SIGN_IN_CLIENT_ID',
  'CIDAAS_SIGN_IN_REDIRECT_URI',
];
const missingCidaas = REAL_CIDAAS.filter((name) => !process.env[name]);
if (counts.skips.length > 0) console.log(`\nSkipped:\n  ${counts.skips.join('\n  ')}`);
const findingsFile = join(root, REAL_CIDAAS_VARIANTS_FILE);
const findings = existsSync(findingsFile) ? JSON.parse(readFileSync(findingsFile, 'utf8')) : undefined;
console.log(`\n${realCidaasLines(missingCidaas, findings).join('\n')}`);
if (counts.failures.length > 0) console.log(`\nFailed:\n  ${counts.failures.join('\n  ')}`);
const skipped = counts.skipped ? `, ${counts.skipped} skipped` : '';
console.log(`\nTests: ${counts.passed} passed, ${counts.failed} failed${skipped}`);
if (failedStep || counts.failed > 0) {
  if (failedStep) console.error(failedStep instanceof Error ? failedStep.message : failedStep);
  process.exit(1);
}
