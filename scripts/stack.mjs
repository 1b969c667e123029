// Starts the whole product on one machine: mail catcher, embedded provider, server (with the
// portal) and the demo relying party, each in its own process. Used by `npm start` (fixed ports,
// movable by environment variables: portsFromEnv) and by the browser tests (free ports, a throw-away data directory). Each app runs compiled
// (apps/<app>/dist/main.js, scripts/build-node-apps.mjs), as in production; bundles older than
// their sources are rebuilt first. Plain JavaScript, so that it runs before anything is built.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildNodeApps, nodeArguments } from './build-node-apps.mjs';
import { startEmbeddedPostgres } from './embedded-postgres.mjs';
import { freePort } from './free-port.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const SHIPPED_TENANTS = join(root, 'tenants');
const SHIPPED_CUSTOMER_PORTAL = 'http://localhost:8082';

/**
 * The tenant registry for this run: the shipped one, or — when the demo relying party runs on
 * another port, as in the browser tests — a copy whose customer portal URLs point at it.
 */
function tenantsFor(dataDir, propertyPortalUrl) {
  if (propertyPortalUrl === SHIPPED_CUSTOMER_PORTAL) return join(SHIPPED_TENANTS, 'tenants.json');
  const folder = join(dataDir, 'tenants');
  cpSync(SHIPPED_TENANTS, folder, { recursive: true });
  const file = join(folder, 'tenants.json');
  writeFileSync(file, readFileSync(file, 'utf8').replaceAll(SHIPPED_CUSTOMER_PORTAL, propertyPortalUrl));
  return file;
}

/**
 * The embedded provider's clients, one per tenant, as an operator would register them at cidaas:
 * each tenant's relying party is the demo property portal, and its hosted page URL is the portal's
 * /login with the tenant's subdomain (cidaas passes on nothing else). Extra clients with a subdomain
 * get that hosted page URL too unless they bring their own.
 */
function providerClientsFor(dataDir, tenantsFile, portalUrl, propertyPortalUrl, extraClients = []) {
  const { tenants } = JSON.parse(readFileSync(tenantsFile, 'utf8'));
  const asRelyingParty = {
    redirect_uris: [
      `${propertyPortalUrl}/callback`,
      `${propertyPortalUrl}/silent-renew`,
      `${propertyPortalUrl}/popup-callback`,
    ],
    post_logout_redirect_uris: [`${propertyPortalUrl}/`],
    grant_types: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_method: 'none',
  };
  const hostedPageUrl = (subdomain) => `${portalUrl}/login?subdomain=${encodeURIComponent(subdomain)}`;
  const clients = tenants.map((tenant) => ({
    client_id: tenant.clientId,
    client_name: tenant.displayName,
    ...asRelyingParty,
    hosted_page_url: hostedPageUrl(tenant.subdomain),
    subdomain: tenant.subdomain,
    brand_color: tenant.brand.primaryColor,
  }));
  const extra = extraClients.map((client) => ({
    ...asRelyingParty,
    ...(typeof client.subdomain === 'string' ? { hosted_page_url: hostedPageUrl(client.subdomain) } : {}),
    ...client,
  }));
  const file = join(dataDir, 'provider-clients.json');
  writeFileSync(file, `${JSON.stringify([...clients, ...extra], null, 2)}\n`);
  return file;
}

export const DEFAULT_PORTS = {
  server: 8080,
  provider: 8081,
  propertyPortal: 8082,
  smtp: 1025,
  mail: 8025,
  postgres: 8432,
};

/**
 * The environment variables that move `npm start`'s ports, each the one its app reads itself (the
 * server's PORT, the provider's PROVIDER_PORT, …), so that the same name moves an app alone or in
 * the stack; POSTGRES_PORT is the embedded PostgreSQL's.
 */
export const PORT_VARIABLES = {
  server: 'PORT',
  provider: 'PROVIDER_PORT',
  propertyPortal: 'PROPERTY_PORTAL_PORT',
  smtp: 'MAIL_SMTP_PORT',
  mail: 'MAIL_HTTP_PORT',
  postgres: 'POSTGRES_PORT',
};

/**
 * A port from the environment, or the default when the variable is unset or empty.
 * @param {NodeJS.ProcessEnv} env
 * @param {string} name
 * @param {number} fallback
 */
export function portFromEnv(env, name, fallback) {
  const value = env[name];
  return value === undefined || value === '' ? fallback : parsePort(name, value);
}

/**
 * @param {string} name the variable, for the message
 * @param {string} value
 */
export function parsePort(name, value) {
  if (!/^\d{1,5}$/.test(value) || Number(value) < 1 || Number(value) > 65535) {
    throw new Error(`${name} must be a port number from 1 to 65535, not "${value}".`);
  }
  return Number(value);
}

/**
 * Refuses ports that collide: one app would fail to listen, with a message naming no variable.
 * @param {[string, number][]} ports each port with the variable that set it
 */
export function refuseSharedPorts(ports) {
  const seen = new Map();
  for (const [name, port] of ports) {
    if (seen.has(port)) {
      throw new Error(`${seen.get(port)} and ${name} are both ${port}: each needs a port of its own.`);
    }
    seen.set(port, name);
  }
}

/**
 * `npm start`'s ports: the defaults, each moved by its variable (PORT_VARIABLES), for a machine
 * where something else has 8080 or 8432 already.
 * @param {NodeJS.ProcessEnv} [env]
 */
export function portsFromEnv(env = process.env) {
  const entries = Object.entries(PORT_VARIABLES).map(([app, name]) => [
    app,
    name,
    portFromEnv(env, name, DEFAULT_PORTS[app]),
  ]);
  refuseSharedPorts(entries.map(([, name, port]) => [name, port]));
  return Object.fromEntries(entries.map(([app, , port]) => [app, port]));
}

/**
 * A free port for each app of a run (free-port.mjs), no two alike.
 * @param {Set<number>} [taken] ports the run has chosen already; these are added to it
 */
export async function freePorts(taken = new Set()) {
  return {
    server: await freePort(taken),
    provider: await freePort(taken),
    propertyPortal: await freePort(taken),
    smtp: await freePort(taken),
    mail: await freePort(taken),
    postgres: await freePort(taken),
  };
}

/**
 * `providerAwayPort`: one more server there, on the same database, that reaches no provider — the
 * browser tests' provider outage, while the rest of the run goes on with its provider.
 * @param {{ ports?: typeof DEFAULT_PORTS, dataDir?: string, env?: Record<string, string>, quiet?: boolean,
 *   extraProviderClients?: Record<string, unknown>[], throwAwayData?: boolean, providerAwayPort?: number }} options
 */
export async function startStack(options = {}) {
  // Cheap when nothing changed (file times only); the browser tests' setup relies on it.
  await buildNodeApps({ ifStale: true, quiet: options.quiet });
  const ports = options.ports ?? DEFAULT_PORTS;
  const urls = urlsFor(ports, ports.server);
  const run = await prepareRun(options, urls, ports);
  const apps = launch(
    [
      mailCatcherProcess(ports, urls),
      providerProcess(ports, urls),
      {
        name: 'server',
        ...nodeApp('server'),
        // One instance and no balancer: nothing to drain from, so a stop is immediate.
        env: { PORT: String(ports.server), SHUTDOWN_DRAIN_SECONDS: '0' },
        ready: `${urls.portal}/readyz`,
      },
      propertyPortalProcess(ports, urls),
      ...(options.providerAwayPort
        ? [
            {
              name: 'server-provider-away',
              ...nodeApp('server'),
              // Nothing listens on port 9 (discard): every provider call is refused at once.
              env: {
                PORT: String(options.providerAwayPort),
                PROVIDER_URL: 'http://127.0.0.1:9',
                SHUTDOWN_DRAIN_SECONDS: '0',
              },
              ready: `http://localhost:${options.providerAwayPort}/readyz`,
            },
          ]
        : []),
    ],
    run.env,
    options,
  );
  const stop = async () => {
    await apps.stop();
    await run.postgres?.stop();
  };
  try {
    await apps.ready;
  } catch (error) {
    await stop();
    throw error;
  }
  return { urls, ports, stop, children: apps.children, database: run.env.DATABASE_URL };
}

/**
 * The addresses of a run whose portal (the server, or the load balancer in front of several) is on
 * `portalPort`.
 * @param {{ provider: number, propertyPortal: number, mail: number, smtp: number }} ports
 * @param {number} portalPort
 */
export function urlsFor(ports, portalPort) {
  return {
    portal: `http://localhost:${portalPort}`,
    provider: `http://localhost:${ports.provider}`,
    propertyPortal: `http://localhost:${ports.propertyPortal}`,
    mail: `http://localhost:${ports.mail}`,
    smtp: `smtp://localhost:${ports.smtp}`,
  };
}

/**
 * What every app of a run shares: the data directory, the tenant registry, the provider's clients,
 * the URLs, and one PostgreSQL for both apps, a schema each, as in production — the embedded one
 * unless DATABASE_URL names another (or `embeddedDatabase` asks for the embedded one regardless).
 * @param {{ dataDir?: string, env?: Record<string, string>, extraProviderClients?: Record<string, unknown>[],
 *   throwAwayData?: boolean, embeddedDatabase?: boolean }} options
 * @param {ReturnType<typeof urlsFor>} urls
 * @param {{ postgres: number }} ports
 */
export async function prepareRun(options, urls, ports) {
  const dataDir = options.dataDir ?? join(root, '.data');
  mkdirSync(dataDir, { recursive: true });
  const tenantsFile = tenantsFor(dataDir, urls.propertyPortal);
  // An empty DATABASE_URL counts as none.
  const givenDatabase = options.embeddedDatabase
    ? undefined
    : options.env?.DATABASE_URL || process.env.DATABASE_URL || undefined;
  const postgres = givenDatabase
    ? undefined
    : await startEmbeddedPostgres({
        dataDir: join(dataDir, 'postgres'),
        port: ports.postgres,
        persistent: !options.throwAwayData,
      });
  const env = {
    ...process.env,
    // A development run: the apps may take their development defaults and public secrets, which
    // they refuse without this switch (docs/operations.md, "Configuration").
    CONCIERGE_DEV: 'true',
    DATA_DIR: dataDir,
    TENANTS_FILE: tenantsFile,
    PROVIDER_CLIENTS_FILE: providerClientsFor(
      dataDir,
      tenantsFile,
      urls.portal,
      urls.propertyPortal,
      options.extraProviderClients,
    ),
    PORTAL_URL: urls.portal,
    PROVIDER_URL: urls.provider,
    PROPERTY_PORTAL_URL: urls.propertyPortal,
    SMTP_URL: urls.smtp,
    ...options.env,
    DATABASE_URL: givenDatabase ?? postgres?.url,
  };
  return { dataDir, env, postgres };
}

/**
 * `node` with source maps on an app's compiled entry: a stack trace in a log names src/ lines.
 * @param {string} app
 * @param {string} [entry] another compiled main of the app (absolute), e.g. a variant build
 */
export function nodeApp(app, entry) {
  return { command: process.execPath, args: ['--enable-source-maps', ...nodeArguments(app, entry)] };
}

export function mailCatcherProcess(ports, urls) {
  return {
    name: 'mail',
    ...nodeApp('mail-catcher'),
    env: { MAIL_SMTP_PORT: String(ports.smtp), MAIL_HTTP_PORT: String(ports.mail) },
    ready: `${urls.mail}/api/messages`,
  };
}

export function providerProcess(ports, urls) {
  return {
    name: 'provider',
    ...nodeApp('provider'),
    env: { PROVIDER_PORT: String(ports.provider) },
    ready: `${urls.provider}/healthz`,
  };
}

export function propertyPortalProcess(ports, urls) {
  return {
    name: 'rp',
    ...nodeApp('property-portal'),
    env: { PROPERTY_PORTAL_PORT: String(ports.propertyPortal) },
    ready: `${urls.propertyPortal}/config.json`,
  };
}

/** How much of a process's output is kept for the error that says why it did not start. */
const OUTPUT_KEPT_CHARACTERS = 4000;

/**
 * Starts processes, each with the shared environment and its own on top, its output prefixed with
 * its name (or dropped when `quiet`). `ready` settles when every one answers its ready URL; `stop`
 * ends them all (SIGTERM, then SIGKILL after 5 s).
 * @param {{ name: string, command: string, args: string[], env: Record<string, string>, ready: string }[]} processes
 * @param {NodeJS.ProcessEnv} sharedEnv
 * @param {{ quiet?: boolean }} options
 */
export function launch(processes, sharedEnv, options = {}) {
  const children = processes.map((spec) => {
    const child = spawn(spec.command, spec.args, {
      cwd: root,
      env: { ...sharedEnv, ...spec.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const prefix = `[${spec.name}] `;
    // The end of what it printed, also when quiet: it says why a process that failed to start did.
    let tail = '';
    const forward = (/** @type {NodeJS.WritableStream} */ target) => (/** @type {Buffer} */ chunk) => {
      tail = (tail + chunk.toString()).slice(-OUTPUT_KEPT_CHARACTERS);
      if (options.quiet) return;
      for (const line of chunk.toString().split('\n')) if (line) target.write(`${prefix}${line}\n`);
    };
    child.stdout.on('data', forward(process.stdout));
    child.stderr.on('data', forward(process.stderr));
    const output = () => tail;
    return { spec, child, output, exited: new Promise((resolve) => child.once('exit', resolve)) };
  });
  // However this process ends — a test runner stopped with Ctrl-C may exit without its teardown —
  // its children end with it, never left running on their ports.
  const endChildren = () => {
    for (const { child } of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  };
  process.once('exit', endChildren);
  const ready = Promise.all(
    children.map(({ spec, child, output }) => waitUntilReady(spec, child, undefined, output)),
  );
  // A failed start is reported through `ready` by whoever awaits it.
  ready.catch(() => undefined);
  return {
    ready,
    children: children.map(({ spec, child, output }) => ({ name: spec.name, child, output })),
    async stop() {
      process.removeListener('exit', endChildren);
      await Promise.all(children.map(({ child, exited }) => stopProcess(child, exited)));
    },
  };
}

/**
 * @param {import('node:child_process').ChildProcess} child
 * @param {Promise<unknown>} exited
 */
async function stopProcess(child, exited) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/**
 * @param {{ name: string, ready: string }} app
 * @param {import('node:child_process').ChildProcess} child
 * @param {number} [timeoutMs]
 * @param {() => string} [output] the end of what the process printed, for the error when it exits
 */
export async function waitUntilReady(app, child, timeoutMs = 90_000, output = () => '') {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      const printed = output().trim();
      throw new Error(
        `${app.name} exited with code ${child.exitCode} while starting${printed ? `; it printed:\n${printed}` : ''}`,
      );
    }
    try {
      const response = await fetch(app.ready, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${app.name} was not ready after ${timeoutMs / 1000} s (${app.ready})`);
}
