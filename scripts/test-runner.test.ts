import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
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

  it('ends the processes it started when it is stopped with Ctrl-C before its teardown', async () => {
    // What a test runner does on Ctrl-C: it handles SIGINT and exits, its teardown not run.
    const script = `
      import { launch } from './scripts/stack.mjs';
      const stack = launch([{ name: 'app', command: 'sleep', args: ['60'], env: {}, ready: 'http://127.0.0.1:9/' }], process.env, { quiet: true });
      process.on('SIGINT', () => process.exit(130));
      console.log(stack.children[0].child.pid);`;
    const parent = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: root });
    const [line] = (await once(parent.stdout, 'data')) as [Buffer];
    const childPid = Number(line.toString().trim());
    expect(isAlive(childPid)).toBe(true);
    parent.kill('SIGINT');
    await once(parent, 'exit');
    await expect.poll(() => isAlive(childPid), { timeout: 5000 }).toBe(false);
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
