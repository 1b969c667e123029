// Vitest's global setup for the node tests: one embedded PostgreSQL for the whole run, started
// before any test file and stopped after the last; every file opens its own schema on it
// (openTestDatabase). With DATABASE_URL set (another server) it starts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from './embedded-postgres.mjs';
import { freePort } from './free-port.mjs';

export default async function setup() {
  if (process.env.DATABASE_URL) return undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'concierge-test-db-'));
  const postgres = await startEmbeddedPostgres({ dataDir, port: await freePort(), persistent: false });
  // Test workers start after this and inherit it.
  process.env.DATABASE_URL = postgres.url;
  return async () => {
    await postgres.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
