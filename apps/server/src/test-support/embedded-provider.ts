import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createThrowAwayDatabase, databaseLocationFromEnv } from '@concierge/database';
import { freePort } from '@concierge/test-support';
import { buildNodeApps, nodeArguments } from '../../../../scripts/build-node-apps.mjs';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
export const TEST_ADMIN_CLIENT = { clientId: 'concierge-server', clientSecret: 'server-test-admin-secret' };

export interface EmbeddedProvider {
  url: string;
  /** What it wrote to standard output (its log lines), when started with `captureLog`. */
  log(): string;
  stop(): Promise<void>;
}

/**
 * The real embedded provider in its own process, as the server meets it in production (over HTTP,
 * never imported). It keeps its data in a throw-away database on the test run's PostgreSQL. It runs
 * compiled, as `npm start` and the browser tests run it, rebuilt first when its sources changed.
 */
export async function startEmbeddedProvider(
  env: Record<string, string> = {},
  options: { captureLog?: boolean } = {},
): Promise<EmbeddedProvider> {
  await buildNodeApps({ apps: ['provider'], ifStale: true, quiet: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'server-test-provider-'));
  const clientsFile = join(dataDir, 'clients.json');
  writeFileSync(clientsFile, JSON.stringify(registryClients()));
  // A database of its own: the provider's schema name is fixed, and other files start providers too.
  const database = await createThrowAwayDatabase(databaseLocationFromEnv().url, 'provider_test');
  const child: ChildProcess = spawn(
    process.execPath,
    ['--enable-source-maps', ...nodeArguments('provider')],
    {
      cwd: root,
      env: {
        ...process.env,
        // A test run: the embedded provider's development defaults (apps/provider/src/config.ts).
        CONCIERGE_DEV: 'true',
        DATABASE_URL: database.url,
        PROVIDER_PORT: String(port),
        PROVIDER_URL: url,
        DATA_DIR: dataDir,
        PROVIDER_ADMIN_CLIENT_ID: TEST_ADMIN_CLIENT.clientId,
        PROVIDER_ADMIN_CLIENT_SECRET: TEST_ADMIN_CLIENT.clientSecret,
        PROVIDER_CLIENTS_FILE: clientsFile,
        // The test server's portal (test-server.ts): the console's client returns there.
        PORTAL_URL: 'http://portal.test',
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', options.captureLog ? 'pipe' : 'ignore', 'pipe'],
    },
  );
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the embedded provider exited: ${stderr}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { url, log: () => stdout, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(`the embedded provider did not start within 60 s: ${stderr}`);
}

/**
 * One client per tenant of the shipped registry, as an operator registers them at cidaas (and
 * `npm start` does): the server asks authz/generate with a tenant's client when it registers.
 */
function registryClients() {
  const registry = JSON.parse(readFileSync(join(root, 'tenants/tenants.json'), 'utf8')) as {
    tenants: { subdomain: string; displayName: string; portalUrl: string; clientId: string }[];
  };
  return registry.tenants.map((tenant) => ({
    client_id: tenant.clientId,
    client_name: tenant.displayName,
    subdomain: tenant.subdomain,
    hosted_page_url: `http://portal.test/login?subdomain=${tenant.subdomain}`,
    redirect_uris: [`${tenant.portalUrl}/callback`],
    grant_types: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_method: 'none',
  }));
}
