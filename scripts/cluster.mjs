// Runs the product as production does: several server instances behind nginx on one PostgreSQL,
// with the embedded provider, the mail catcher and the demo relying party beside them, as `npm start`
// runs them (the same pieces, scripts/stack.mjs). Used by `npm run cluster` (fixed ports), by the
// browser tests with E2E_CLUSTER=1 and by the cluster tests (free ports, throw-away data).
// docs/operations.md, "Behind a load balancer".
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildNodeApps, compiledMain } from './build-node-apps.mjs';
import { freePort } from './free-port.mjs';
import {
  DEFAULT_PORTS,
  freePorts,
  launch,
  mailCatcherProcess,
  nodeApp,
  PORT_VARIABLES,
  parsePort,
  portsFromEnv,
  prepareRun,
  propertyPortalProcess,
  providerProcess,
  refuseSharedPorts,
  urlsFor,
} from './stack.mjs';

const TEMPLATE = fileURLToPath(new URL('nginx/cluster.conf.template', import.meta.url));
const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
/** The address nginx and the instances listen on, and the one the instances see nginx come from. */
const LOOPBACK = '127.0.0.1';

/** `npm run cluster`: the balancer where `npm start` has the server, the instances beside it. */
export const DEFAULT_CLUSTER_PORTS = {
  ...DEFAULT_PORTS,
  /** nginx: the portal's address. */
  balancer: DEFAULT_PORTS.server,
  instances: [8090, 8091, 8092],
  /** Each instance's Prometheus port (METRICS_PORT). */
  metrics: [9464, 9465, 9466],
};

/**
 * A list of ports from the environment (`8090,8091,8092`), or the default when unset or empty.
 * @param {NodeJS.ProcessEnv} env
 * @param {string} name
 * @param {number[]} fallback
 */
function portListFromEnv(env, name, fallback) {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  return value.split(',').map((entry) => parsePort(name, entry.trim()));
}

/**
 * `npm run cluster`'s ports: `npm start`'s (portsFromEnv; PORT is nginx's, where the portal is),
 * the instances' from CLUSTER_INSTANCE_PORTS and their metrics ports from CLUSTER_METRICS_PORTS,
 * one per instance in each list; a list of another length runs that many instances.
 * @param {NodeJS.ProcessEnv} [env]
 */
export function clusterPortsFromEnv(env = process.env) {
  const ports = portsFromEnv(env);
  const instances = portListFromEnv(env, 'CLUSTER_INSTANCE_PORTS', DEFAULT_CLUSTER_PORTS.instances);
  const metrics = portListFromEnv(env, 'CLUSTER_METRICS_PORTS', DEFAULT_CLUSTER_PORTS.metrics);
  if (metrics.length !== instances.length) {
    throw new Error(
      `CLUSTER_METRICS_PORTS must name one port per instance of CLUSTER_INSTANCE_PORTS (${instances.length}).`,
    );
  }
  refuseSharedPorts([
    ...Object.entries(PORT_VARIABLES).map(([app, name]) => [name, ports[app]]),
    ...instances.map((port, index) => [`CLUSTER_INSTANCE_PORTS[${index}]`, port]),
    ...metrics.map((port, index) => [`CLUSTER_METRICS_PORTS[${index}]`, port]),
  ]);
  return { ...ports, balancer: ports.server, instances, metrics };
}

/** Free loopback ports for a cluster of `count` instances. */
export async function freeClusterPorts(count = 3) {
  const taken = new Set();
  const ports = await freePorts(taken);
  const instances = [];
  const metrics = [];
  for (let index = 0; index < count; index += 1) {
    instances.push(await freePort(taken));
    metrics.push(await freePort(taken));
  }
  return { ...ports, balancer: ports.server, instances, metrics };
}

/**
 * How long nginx leaves out an instance it could not reach (its `fail_timeout`). An instance that was
 * restarted gets requests again only after it: a rolling restart waits this long after an instance
 * is ready before it stops the next, or the next one's stop would leave too few to answer.
 */
export const NGINX_FAIL_TIMEOUT_SECONDS = 5;

/** The levels at which the server logs its start line, an info line (docs/operations.md, "Logs"). */
const LEVELS_WITH_START_LINE = new Set(['trace', 'debug', 'info']);
/** How long after its /readyz a start line may still be on its way through the pipe. */
const START_LINE_GRACE_MS = 10_000;

/**
 * A server's start line, read from its output: the build, the migrations found and run, and the
 * configuration, secrets masked. Rejects when the server exits before it; `afterReady` makes it
 * reject too when the line has not come shortly after /readyz answered (the server logs it before
 * it listens: only the pipe may still hold it).
 * @param {import('node:child_process').ChildProcess} child
 * @param {string} name
 */
function startLineOf(child, name) {
  let pending = '';
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  /** @type {(reason: Error) => void} */
  let fail = () => undefined;
  /** @type {Promise<Record<string, unknown>>} */
  const line = new Promise((resolve, reject) => {
    const finish = (/** @type {() => void} */ settle) => {
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      clearTimeout(timer);
      settle();
    };
    const onData = (/** @type {Buffer} */ chunk) => {
      pending += chunk.toString();
      for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
        const entry = parsedLogLine(pending.slice(0, end));
        pending = pending.slice(end + 1);
        if (entry?.build && entry.migrations) return finish(() => resolve(entry));
      }
    };
    const onExit = (/** @type {number | null} */ code) =>
      finish(() => reject(new Error(`${name} exited (code ${code}) before its start line`)));
    fail = (reason) => finish(() => reject(reason));
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
  // Whoever awaits it hears of a failure; unawaited (a start that failed anyway), it is no unhandled rejection.
  line.catch(() => undefined);
  return {
    line,
    afterReady() {
      timer = setTimeout(
        () => fail(new Error(`${name} answered /readyz but logged no start line`)),
        START_LINE_GRACE_MS,
      );
      return line;
    },
  };
}

/**
 * One line of a server's JSON log, or undefined for anything else (a pretty-printed line, a line of
 * Node's own).
 * @param {string} text
 * @returns {Record<string, unknown> | undefined}
 */
function parsedLogLine(text) {
  if (!text.startsWith('{')) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The nginx configuration of the template for this run: its directory, where nginx listens and
 * where the instances are. A template line with {{instance}} is written once per instance.
 * @param {{ runDir: string, listen: string, instances: string[] }} values
 */
export function nginxConfig({ runDir, listen, instances }) {
  const lines = readFileSync(TEMPLATE, 'utf8')
    .split('\n')
    .flatMap((line) =>
      line.includes('{{instance}}')
        ? instances.map((instance) => line.replaceAll('{{instance}}', instance))
        : [line],
    );
  return lines
    .join('\n')
    .replaceAll('{{run_dir}}', runDir)
    .replaceAll('{{listen}}', listen)
    .replaceAll('{{fail_timeout}}', `${NGINX_FAIL_TIMEOUT_SECONDS}s`);
}

/**
 * Starts the cluster: PostgreSQL (embedded unless DATABASE_URL is given, or always with
 * `embeddedDatabase`), the mail catcher, the embedded provider, the server instances (TRUST_PROXY set
 * to nginx's address, each with a metrics port) and the demo relying party; then nginx in front of
 * the instances. The provider and the instances know the portal as nginx's address, so the hosted
 * login pages, the webhooks and the failed-login counter all go through it.
 * @param {{ ports?: typeof DEFAULT_CLUSTER_PORTS, dataDir?: string, env?: Record<string, string>,
 *   quiet?: boolean, extraProviderClients?: Record<string, unknown>[], throwAwayData?: boolean,
 *   embeddedDatabase?: boolean, drainSeconds?: number }} options
 */
export async function startCluster(options = {}) {
  if (!existsSync(NGINX)) {
    throw new Error(
      `nginx is needed at ${NGINX} for the cluster: install it ("sudo apt-get install -y nginx") or set NGINX_PATH.`,
    );
  }
  await buildNodeApps({ ifStale: true, quiet: options.quiet });
  const ports = options.ports ?? DEFAULT_CLUSTER_PORTS;
  const urls = urlsFor(ports, ports.balancer);
  const run = await prepareRun(options, urls, ports);
  const instances = ports.instances.map((port, index) => ({
    name: `server-${index + 1}`,
    port,
    url: `http://${LOOPBACK}:${port}`,
    metricsUrl: `http://${LOOPBACK}:${ports.metrics[index]}/metrics`,
    /** The compiled main it runs: the server's build, until restartInstance starts another. */
    entry: compiledMain('server'),
  }));
  const instanceProcesses = instances.map((instance, index) => ({
    name: instance.name,
    ...nodeApp('server', instance.entry),
    env: {
      // The client address comes from nginx's X-Forwarded-For, and only from nginx.
      TRUST_PROXY: LOOPBACK,
      SHUTDOWN_DRAIN_SECONDS: String(options.drainSeconds ?? 2),
      ...options.env,
      PORT: String(instance.port),
      METRICS_PORT: String(ports.metrics[index]),
    },
    ready: `${instance.url}/readyz`,
  }));
  const backends = launch(
    [
      mailCatcherProcess(ports, urls),
      providerProcess(ports, urls),
      ...instanceProcesses,
      propertyPortalProcess(ports, urls),
    ],
    run.env,
    options,
  );
  /** Instances started again by restartInstance, by index: stopped with the rest. */
  const restarted = new Map();
  // nginx's own directory: configuration, pid, access log and temporary files, removed on stop.
  const runDir = mkdtempSync(join(tmpdir(), 'concierge-nginx-'));
  // As root, nginx's workers run as another user, who must reach the temporary paths in here.
  chmodSync(runDir, 0o755);
  const configFile = join(runDir, 'nginx.conf');
  writeFileSync(
    configFile,
    nginxConfig({
      runDir,
      listen: `${LOOPBACK}:${ports.balancer}`,
      instances: instances.map((instance) => `${LOOPBACK}:${instance.port}`),
    }),
  );
  /** @type {ReturnType<typeof launch> | undefined} */
  let balancer;
  const stop = async () => {
    // nginx first, so that nothing new reaches the instances while they stop.
    await balancer?.stop();
    await Promise.all([...restarted.values()].map((instance) => instance.stop()));
    await backends.stop();
    await run.postgres?.stop();
    rmSync(runDir, { recursive: true, force: true });
  };
  try {
    await backends.ready;
    // Only once the instances answer: connections refused while they start would mark them down.
    balancer = launch(
      [
        {
          name: 'nginx',
          command: NGINX,
          args: ['-p', runDir, '-c', configFile, '-e', 'stderr'],
          env: {},
          ready: `${urls.portal}/healthz`,
        },
      ],
      run.env,
      options,
    );
    await balancer.ready;
  } catch (error) {
    await stop();
    throw error;
  }
  /** Each server instance: its own address (beside nginx), its metrics and its process. */
  const running = instances.map((instance) => ({
    ...instance,
    child: backends.children.find((child) => child.name === instance.name)?.child,
  }));
  /**
   * One instance stopped as an orchestrator stops it (SIGTERM: it drains, then exits; one already
   * stopped is only started) and started again on its port, resolved once its /readyz answers. A
   * rolling restart does this to each instance in turn (docs/operations.md, "Shutdown and
   * draining"); from then on, `env` changes its configuration (a rotated secret, a new build's
   * setting) and `entry` is the compiled main it runs (another build: an upgrade, a rollback).
   * Resolves to its start line (docs/operations.md, "Logs") when its LOG_LEVEL shows it (info).
   * @param {number} index
   * @param {{ env?: Record<string, string>, entry?: string }} [change]
   */
  async function restartInstance(index, { env = {}, entry } = {}) {
    const instance = running[index];
    if (!instance) throw new Error(`no instance ${index}`);
    const { child } = instance;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    const spec = instanceProcesses[index];
    spec.env = { ...spec.env, ...env };
    if (entry) {
      Object.assign(spec, nodeApp('server', entry));
      instance.entry = entry;
    }
    // The launch this replaces has exited: its stop only lets go of its exit listener.
    await restarted.get(index)?.stop();
    const again = launch([spec], run.env, options);
    restarted.set(index, again);
    const started = again.children[0]?.child;
    const logsStartLine = LEVELS_WITH_START_LINE.has(spec.env.LOG_LEVEL || run.env.LOG_LEVEL || 'info');
    const startLine = started && logsStartLine ? startLineOf(started, instance.name) : undefined;
    await again.ready;
    instance.child = started;
    return startLine?.afterReady();
  }
  return {
    urls,
    ports,
    stop,
    children: [...backends.children, ...balancer.children],
    database: run.env.DATABASE_URL,
    tenantsFile: run.env.TENANTS_FILE,
    instances: running,
    restartInstance,
    balancer: { url: urls.portal, configFile, accessLog: join(runDir, 'access.log') },
    /** The embedded PostgreSQL (undefined when DATABASE_URL named another). */
    postgres: run.postgres,
  };
}
