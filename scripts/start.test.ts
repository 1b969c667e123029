import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freeClusterPorts } from './cluster.mjs';

// `npm run cluster` (scripts/start.mjs --cluster) sent SIGTERM alone, as a service manager or `kill`
// sends it: it must stop everything it started — nginx, the server instances (which drain first), the
// provider, the mail catcher, the demo relying party and its embedded PostgreSQL — and remove nginx's
// run directory before it exits. PostgreSQL's package has signal hooks of its own, which used to stop
// PostgreSQL under the apps and end the launcher at once: the instances drained on as orphans, and
// the run directory stayed. One instance here (CLUSTER_INSTANCE_PORTS), free ports, a data directory
// of its own (DATA_DIR) and the embedded PostgreSQL (DATABASE_URL emptied), whose hooks are the point.

const root = fileURLToPath(new URL('..', import.meta.url));

/** Every process under `pid`, by the parent each names in /proc. */
function descendantsOf(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = statOf(Number(entry))?.parent;
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  for (let queue = [pid]; queue.length > 0; ) {
    const next = children.get(queue.shift()!) ?? [];
    found.push(...next);
    queue.push(...next);
  }
  return found;
}

/** A process's state and parent from /proc/<pid>/stat (the name before them may hold spaces). */
function statOf(pid: number): { state: string; parent: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: state!, parent: Number(parent) };
  } catch {
    return undefined;
  }
}

/** Running, as opposed to gone or a zombie its parent has not collected yet. */
const isRunning = (pid: number) => {
  const state = statOf(pid)?.state;
  return state !== undefined && state !== 'Z' && state !== 'X';
};

describe('npm run cluster sent SIGTERM', () => {
  it('stops every process it started and removes its run directory before it exits', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'concierge-launcher-test-'));
    // The embedded PostgreSQL may run as another user (as root: `postgres`); it must reach its folder.
    chmodSync(dataDir, 0o755);
    const ports = await freeClusterPorts(1);
    const launcher = spawn(process.execPath, [join(root, 'scripts/start.mjs'), '--cluster'], {
      cwd: root,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        PORT: String(ports.balancer),
        PROVIDER_PORT: String(ports.provider),
        PROPERTY_PORTAL_PORT: String(ports.propertyPortal),
        MAIL_SMTP_PORT: String(ports.smtp),
        MAIL_HTTP_PORT: String(ports.mail),
        POSTGRES_PORT: String(ports.postgres),
        CLUSTER_INSTANCE_PORTS: String(ports.instances[0]),
        CLUSTER_METRICS_PORTS: String(ports.metrics[0]),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => launcher.once('exit', resolve));
    let printed = '';
    launcher.stderr.on('data', (chunk: Buffer) => {
      printed = (printed + chunk.toString()).slice(-4000);
    });
    try {
      // The banner names nginx's configuration, in its run directory: the launcher is ready.
      const configFile = await new Promise<string>((resolve, reject) => {
        createInterface({ input: launcher.stdout }).on('line', (line) => {
          printed = `${printed}${line}\n`.slice(-4000);
          const match = /nginx configuration\s+(\S+)/.exec(line);
          if (match) resolve(match[1]!);
        });
        void exited.then((code) =>
          reject(new Error(`the launcher exited (${code}) while starting:\n${printed}`)),
        );
      });
      const runDir = dirname(configFile);
      expect(existsSync(runDir)).toBe(true);
      const started = descendantsOf(launcher.pid!);
      // PostgreSQL (and its workers), the mail catcher, the provider, the instance, the relying
      // party, nginx's master and worker.
      expect(started.length).toBeGreaterThanOrEqual(7);

      launcher.kill('SIGTERM');
      const code = await exited;

      expect(code).toBe(0);
      expect(started.filter(isRunning)).toEqual([]);
      expect(existsSync(runDir)).toBe(false);
      console.log(
        `npm run cluster sent SIGTERM: exited ${code} with all of its ${started.length} processes ended, nginx's directory removed`,
      );
    } finally {
      if (launcher.exitCode === null && launcher.signalCode === null) {
        launcher.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
