import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

// Issue "Tests that cannot lie": a failing test behind the node project's global setup (the embedded
// PostgreSQL, started by the child itself: DATABASE_URL is taken away) must end the run non-zero.
describe('the test runner', () => {
  it('exits non-zero for a failing test behind the embedded database', () => {
    const env = { ...process.env };
    delete env.DATABASE_URL;
    const run = spawnSync(
      join(root, 'node_modules/.bin/vitest'),
      ['run', '--config', 'scripts/fixtures/failing-test/vitest.config.ts'],
      { cwd: root, env, encoding: 'utf8', timeout: 90_000 },
    );
    expect(run.stdout).toContain('1 failed');
    expect(run.status).toBe(1);
  }, 120_000);
});
