// `npm run bench`: the portal's size and speed against the budgets in budgets.mjs. Builds the portal
// if needed, measures what /login makes a browser download, loads the real server on 127.0.0.1,
// prints a table, writes bench/results/latest.json and exits non-zero naming any broken budget.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkBudgets } from './budgets.mjs';
import { assetsLinkedFrom, gzipSize, measureLoginBundle } from './bundle-size.mjs';
import { load, warmUp } from './load.mjs';
import { format, printReport, writeJson } from './report.mjs';
import { memoryOf, SERVER_ENV, startServer } from './server.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const clientDir = join(root, 'apps/portal/dist/client');
const resultsFile = join(root, 'bench/results/latest.json');
const LOGIN_PATH = '/login?requestId=bench&subdomain=demo';
// The product's main audience; also exercises the language negotiation on every request.
const LANGUAGE = { 'accept-language': 'de-CH' };

/** The server cannot start without both halves of the portal build, so either missing means build. */
function ensurePortalBuilt() {
  const manifest = join(clientDir, '.vite/manifest.json');
  const serverBundle = join(root, 'apps/portal/dist/server/entry-server.js');
  if (existsSync(manifest) && existsSync(serverBundle)) return;
  console.log('Building the portal (npm run build --workspace @concierge/portal)…');
  execFileSync('npm', ['run', 'build', '--workspace', '@concierge/portal'], { cwd: root, stdio: 'inherit' });
}

/** @param {string} origin */
async function fetchLoginHtml(origin) {
  const response = await fetch(`${origin}${LOGIN_PATH}`, { headers: { accept: 'text/html', ...LANGUAGE } });
  if (response.status !== 200) throw new Error(`GET ${LOGIN_PATH} answered ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

function gitCommit() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return null;
  }
}

async function main() {
  ensurePortalBuilt();
  const bundle = measureLoginBundle(clientDir);

  console.log(
    `Starting the server (NODE_ENV=${SERVER_ENV.NODE_ENV}, an embedded PostgreSQL in a temporary directory)…`,
  );
  const server = await startServer(root);
  // Ctrl-C during a 10 s run must not leave a server and its data directory behind.
  const onSignal = (signal) => {
    void server.stop().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  let html;
  let figures;
  let rss;
  try {
    const afterStart = memoryOf(server.pid).rss;
    const body = await fetchLoginHtml(server.origin);
    const linked = assetsLinkedFrom(body.toString('utf8'));
    const counted = new Set(bundle.files.map((file) => file.file));
    html = {
      bytes: body.length,
      gzip: gzipSize(body),
      unlistedAssets: linked.filter((file) => !counted.has(file)),
      unlinkedAssets: [...counted].filter((file) => !linked.includes(file)),
    };

    const loginUrl = `${server.origin}${LOGIN_PATH}`;
    const configUrl = `${server.origin}/config.json`;
    const loginHeaders = { accept: 'text/html', ...LANGUAGE };
    const configHeaders = { accept: 'application/json', ...LANGUAGE };
    console.log('Loading GET /login and GET /config.json (warm-up, then measured runs)…');
    await warmUp(loginUrl, loginHeaders);
    const login = await load(loginUrl, { headers: loginHeaders });
    await warmUp(configUrl, configHeaders);
    const config = await load(configUrl, { headers: configHeaders });
    figures = { login, config };

    const after = memoryOf(server.pid);
    rss = { afterStart, afterLoad: after.rss, peak: after.peak };
  } finally {
    await server.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }

  const results = { server: SERVER_ENV, bundle, html, load: figures, rss };
  const verdicts = checkBudgets(results);
  printReport(results, verdicts);
  writeJson(resultsFile, {
    measuredAt: new Date().toISOString(),
    commit: gitCommit(),
    machine: { node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model, memory: totalmem() },
    ...results,
    budgets: verdicts,
  });
  console.log(`\nWrote ${resultsFile}`);

  const broken = verdicts.filter((verdict) => !verdict.ok);
  if (broken.length > 0) {
    for (const { name, kind, limit, unit, actual } of broken) {
      console.error(
        `Budget broken: ${name}: ${format(actual, unit)}, must be ${kind === 'max' ? '≤' : '≥'} ${format(limit, unit)}`,
      );
    }
    process.exitCode = 1;
  } else {
    console.log('\nAll budgets met.');
  }
}

main().catch((error) => {
  console.error(`\nbench failed: ${error instanceof Error ? error.stack : error}`);
  process.exitCode = 1;
});
