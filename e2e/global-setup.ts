import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts, startStack } from '../scripts/stack.mjs';
import { ADMIN_CLIENT_SECRET, ROLES_CLIENT_ID, SERVER_ADMIN_TOKEN } from './support/users';

/**
 * The whole system as `npm start` runs it, on free ports with a throw-away data directory (or the
 * CI's PostgreSQL when DATABASE_URL is set). The URLs reach the tests through the environment.
 */
export default async function globalSetup() {
  const dataDir = mkdtempSync(join(tmpdir(), 'concierge-e2e-'));
  // The embedded PostgreSQL may run as another user (as root: `postgres`); it must reach its folder.
  chmodSync(dataDir, 0o755);
  const stack = await startStack({
    ports: await freePorts(),
    dataDir,
    quiet: !process.env.E2E_VERBOSE,
    throwAwayData: true,
    env: {
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
  });
  process.env.E2E_PORTAL_URL = stack.urls.portal;
  process.env.E2E_PROVIDER_URL = stack.urls.provider;
  process.env.E2E_PROPERTY_PORTAL_URL = stack.urls.propertyPortal;
  process.env.E2E_MAIL_URL = stack.urls.mail;
  return async () => {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
