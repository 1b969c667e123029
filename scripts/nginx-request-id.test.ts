import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nginxConfig } from './cluster.mjs';
import { freePort } from './free-port.mjs';
import { type Launched, launch } from './stack.mjs';

// The cluster's nginx configuration (nginx/cluster.conf.template) in front of one stand-in instance
// that answers with the X-Request-Id it was sent, as the server does: one id for the request in
// nginx's access log and at the instance. The whole cluster is scripts/cluster.test.ts; the server's
// side of the id, apps/server/src/app.test.ts and packages/observability/src/request-id.test.ts.

const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

let runDir: string;
let instance: Server;
let nginx: Launched;
let balancer: string;
beforeAll(async () => {
  instance = createServer((request, response) => {
    const id = request.headers['x-request-id'];
    response.writeHead(200, typeof id === 'string' ? { 'x-request-id': id } : {}).end('ok');
  });
  const instancePort = await freePort();
  await new Promise<void>((resolve) => instance.listen(instancePort, '127.0.0.1', resolve));
  runDir = mkdtempSync(join(tmpdir(), 'concierge-nginx-test-'));
  // As root, nginx's workers run as another user, who must reach the temporary paths in here.
  chmodSync(runDir, 0o755);
  const listen = `127.0.0.1:${await freePort()}`;
  balancer = `http://${listen}`;
  const configFile = join(runDir, 'nginx.conf');
  writeFileSync(configFile, nginxConfig({ runDir, listen, instances: [`127.0.0.1:${instancePort}`] }));
  nginx = launch(
    [
      {
        name: 'nginx',
        command: NGINX,
        args: ['-p', runDir, '-c', configFile, '-e', 'stderr'],
        env: {},
        ready: `${balancer}/healthz`,
      },
    ],
    process.env,
    { quiet: true },
  );
  await nginx.ready;
}, 60_000);
afterAll(async () => {
  await nginx?.stop();
  await new Promise((resolve) => instance?.close(resolve));
  rmSync(runDir, { recursive: true, force: true });
});

describe('nginx in front of the instances', () => {
  it('names each request with an id of its own, passed to the instance and written to the access log', async () => {
    const answers = await Promise.all([
      fetch(`${balancer}/login?marker=first`),
      fetch(`${balancer}/login?marker=second`),
      // What a client sends is not passed on: nginx sets its own, as it does X-Forwarded-For.
      fetch(`${balancer}/login?marker=forged`, { headers: { 'x-request-id': 'chosen-by-the-client' } }),
    ]);
    const ids = answers.map((answer) => answer.headers.get('x-request-id') ?? '');
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(3);
    const log = readFileSync(join(runDir, 'access.log'), 'utf8');
    for (const [index, marker] of ['first', 'second', 'forged'].entries()) {
      const line = log.split('\n').find((entry) => entry.includes(`marker=${marker}`));
      expect(line).toContain(`request_id=${ids[index]}`);
    }
  });
});
