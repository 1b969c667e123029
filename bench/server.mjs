// Starts the real server the way production runs it (its own process, compiled JavaScript with
// its production node flags, the built portal, a real database) so the figures include everything
// a request really goes through. An embedded PostgreSQL in a fresh temporary directory keeps runs
// independent of each other and of a developer's .data.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { nodeArguments } from '../scripts/build-node-apps.mjs';
import { startEmbeddedPostgres } from '../scripts/embedded-postgres.mjs';
import { startProviderStandIn } from './provider-stand-in.mjs';

const READY_TIMEOUT_MS = 60_000;

/**
 * The settings the budgets are measured under. NODE_ENV=production because that is how the server
 * runs for tenants: it switches React and Mantine to their production builds, which
 * render /login about 1.6 times faster than the development builds (measured here: ~450 against
 * ~280 req/s). CONCIERGE_DEV=true: a measurement on this machine, with the development defaults
 * (localhost URLs) for what it does not set; the secrets below exist for the measurement only.
 * LOG_LEVEL=error keeps per-request logging out of the figures.
 */
export const SERVER_ENV = {
  NODE_ENV: 'production',
  CONCIERGE_DEV: 'true',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'error',
  PROVIDER_ADMIN_CLIENT_SECRET: 'bench-admin-client-secret',
  WEBHOOK_API_KEY: 'bench-webhook-api-key',
};
const STOP_TIMEOUT_MS = 10_000;

/** A port the OS has just handed out on 127.0.0.1, so parallel runs and a running `npm start` don't clash. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (probe.address());
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Resident and peak memory of a process from /proc (Linux), in bytes.
 * @param {number} pid
 * @returns {{ rss: number, peak: number }}
 */
export function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kibibytes = (field) => {
    const match = status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
    if (!match) throw new Error(`/proc/${pid}/status has no ${field}`);
    return Number(match[1]) * 1024;
  };
  return { rss: kibibytes('VmRSS'), peak: kibibytes('VmHWM') };
}

/**
 * @typedef {object} RunningServer
 * @property {string} origin e.g. http://127.0.0.1:41234
 * @property {number} pid the server's own node process (no wrapper)
 * @property {number} startMs from spawning the process to the first 200 of /readyz
 * @property {() => Promise<void>} stop ends the server and removes its data; safe to call twice
 * @property {Awaited<ReturnType<typeof startProviderStandIn>>} provider the provider stand-in it asks
 * @property {string} databaseUrl its embedded PostgreSQL (a superuser's URL)
 * @property {() => number} postgresPid the PostgreSQL server's main process (postmaster.pid)
 */

/**
 * @param {string} root the repository root
 * @param {Record<string, string>} [env] on top of SERVER_ENV, for a measurement that needs it
 * @param {{ statementStats?: boolean, nodeFlags?: string[] }} [options]
 *   statementStats: PostgreSQL loads pg_stat_statements (a restart before the server connects), so
 *   that the statements a load costs can be counted; nodeFlags: before the server's own (`--cpu-prof`)
 * @returns {Promise<RunningServer>}
 */
export async function startServer(root, env = {}, { statementStats = false, nodeFlags = [] } = {}) {
  const taken = new Set();
  const port = await freePort(taken);
  const dataDir = mkdtempSync(join(tmpdir(), 'concierge-bench-'));
  const postgres = await startEmbeddedPostgres({ dataDir, port: await freePort(taken), persistent: false });
  if (statementStats) {
    await loadStatementStats(postgres).catch(async (error) => {
      await postgres.stop();
      rmSync(dataDir, { recursive: true, force: true });
      throw error;
    });
  }
  const provider = await startProviderStandIn();
  const origin = `http://127.0.0.1:${port}`;
  const spawned = performance.now();
  const child = spawn(process.execPath, [...nodeFlags, ...nodeArguments('server')], {
    cwd: root,
    env: {
      ...process.env,
      ...SERVER_ENV,
      PROVIDER_URL: provider.url,
      ...env,
      PORT: String(port),
      DATABASE_URL: postgres.url,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Keep only the end of the output: it is there to explain a failed start, and an unread pipe
  // would eventually block the server.
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    await postgres.stop();
    await provider.close();
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await waitUntilReady(origin, exited, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  const startMs = performance.now() - spawned;
  return {
    origin,
    pid: /** @type {number} */ (child.pid),
    startMs,
    stop,
    provider,
    databaseUrl: postgres.url,
    postgresPid: () =>
      Number(readFileSync(join(dataDir, 'cluster/postmaster.pid'), 'utf8').split('\n', 1)[0]),
  };
}

/**
 * pg_stat_statements needs to be loaded when PostgreSQL starts: set, restarted, then created in the
 * server's database (the embedded package ships the extension). The bench's own user is the
 * cluster's superuser.
 * @param {Awaited<ReturnType<typeof startEmbeddedPostgres>>} postgres
 */
async function loadStatementStats(postgres) {
  const asSuperuser = async (/** @type {string} */ statement) => {
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await asSuperuser(`ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'`);
  await postgres.stopServer();
  await postgres.startServer();
  await asSuperuser('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
}

/**
 * Polls /readyz: it answers 200 only once the migrations ran and the database answers.
 * @param {string} origin
 * @param {Promise<{ code: number | null, signal: string | null }>} exited
 * @param {() => string} output
 */
async function waitUntilReady(origin, exited, output) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let hasExited = false;
  exited.then(() => {
    hasExited = true;
  });
  while (Date.now() < deadline) {
    if (hasExited) {
      const { code, signal } = await exited;
      throw new Error(`The server exited during start (code ${code}, signal ${signal}):\n${output()}`);
    }
    try {
      const response = await fetch(`${origin}/readyz`, { signal: AbortSignal.timeout(2000) });
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    // Short: the interval bounds how exactly the start-up time is measured.
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`The server was not ready within ${READY_TIMEOUT_MS / 1000} s:\n${output()}`);
}
