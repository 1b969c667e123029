import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { expect, it } from 'vitest';
import { startEmbeddedPostgres } from './embedded-postgres.mjs';
import { freePort } from './free-port.mjs';

// Issue "Hardening": with one fixed password for every embedded cluster, any local one (another
// checkout's, on a reused port) answered our URL as if it were ours.
it("accepts only its own cluster's password", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'concierge-pg-password-'));
  const postgres = await startEmbeddedPostgres({ dataDir, port: await freePort(), persistent: false });
  const query = async (url: string) => {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      return (await client.query('select 1 as one')).rows[0];
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  try {
    expect(await query(postgres.url)).toEqual({ one: 1 });
    const fixed = new URL(postgres.url);
    fixed.password = 'concierge-embedded';
    await expect(query(fixed.href)).rejects.toThrow(/password authentication failed/);
  } finally {
    await postgres.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 60_000);
