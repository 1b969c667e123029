import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeClusterPorts, startCluster } from '../scripts/cluster.mjs';
import { freePort } from '../scripts/free-port.mjs';
import { freePorts, startStack } from '../scripts/stack.mjs';
import { ADMIN_CLIENT_SECRET, ROLES_CLIENT_ID, SERVER_ADMIN_TOKEN } from './support/users';

/**
 * The whole system as `npm start` runs it, on free ports with a throw-away data directory (or the
 * CI's PostgreSQL when DATABASE_URL is set). The URLs reach the tests through the environment.
 * With E2E_CLUSTER=1 it is the cluster of `npm run cluster` instead: three server instances behind
 * nginx, and the portal's URL is nginx's, so every test goes through the load balancer.
 */
export default async function globalSetup() {
  const dataDir = mkdtempSync(join(tmpdir(), 'concierge-e2e-'));
  // The embedded PostgreSQL may run as another user (as root: `postgres`); it must reach its folder.
  chmodSync(dataDir, 0o755);
  const options = {
    dataDir,
    quiet: !process.env.E2E_VERBOSE,
    throwAwayData: true,
    env: {
      // Every browser test comes from 127.0.0.1, so the whole run is one client address. A run of
      // 132 s, inside one of the limits' 15-minute windows, passed registration's per-address limit
      // of 30 and was refused ("Zu viele Versuche"). As an operator raises them where many tenants
      // share an address (docs/operations.md), the run scales the per-address limits; those per
      // e-mail and per code, which the tests are about, stay as they are.
      ADDRESS_LIMITS_FACTOR: '10',
      LOG_LEVEL: 'warn',
      PROVIDER_ADMIN_CLIENT_SECRET: ADMIN_CLIENT_SECRET,
      ADMIN_API_TOKEN: SERVER_ADMIN_TOKEN,
    },
    // A relying party that lets in only users with a role, for the access_denied test.
    extraProviderClients: [
      {
        client_id: ROLES_CLIENT_ID,
        client_name: 'Stockwerkeigentümer',
        subdomain: 'demo',
        required_roles: ['owner'],
      },
    ],
  };
  const isCluster = process.env.E2E_CLUSTER === '1';
  // The provider outage's server (e2e/provider-outage.spec.ts) runs beside the one stack's server.
  const taken = new Set<number>();
  const providerAwayPort = await freePort(taken);
  const stack = isCluster
    ? await startCluster({ ...options, ports: await freeClusterPorts() })
    : await startStack({ ...options, ports: await freePorts(taken), providerAwayPort });
  if (isCluster)
    console.log(`Browser tests through nginx at ${stack.urls.portal}, three server instances behind it`);
  process.env.E2E_PORTAL_URL = stack.urls.portal;
  process.env.E2E_PROVIDER_URL = stack.urls.provider;
  process.env.E2E_PROPERTY_PORTAL_URL = stack.urls.propertyPortal;
  process.env.E2E_MAIL_URL = stack.urls.mail;
  if (!isCluster) process.env.E2E_PROVIDER_AWAY_URL = `http://localhost:${providerAwayPort}`;
  return async () => {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
