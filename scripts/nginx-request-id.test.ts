import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nginxConfig } from './cluster.mjs';
import { freePort } from './free-port.mjs';
import { type Launched, launch } from './stack.mjs';

// The cluster's nginx configuration (nginx/cluster.conf.template) in front of one stand-in instance
// that answers with the X-Request-Id it was sent, as the server does: one id for the request in
// nginx's access log and at the instance; and with the trace context it was sent, which the
// server's spans continue. The whole cluster is scripts/cluster.test.ts; the server's side of the
// id, apps/server/src/app.test.ts and packages/observability/src/request-id.test.ts, of the trace,
// apps/server/src/observability/tracing.test.ts.

const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

let runDir: string;
let instance: Server;
let nginx: Launched;
let balancer: string;
beforeAll(async () => {
  instance = createServer((request, response) => {
    const echoed = Object.entries({
      'x-request-id': request.headers['x-request-id'],
      'echo-traceparent': request.headers.traceparent,
      'echo-tracestate': request.headers.tracestate,
    }).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
    response.writeHead(200, Object.fromEntries(echoed)).end('ok');
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

  it('hands the instance a traceparent: the client’s own unchanged, else one of nginx’s request id', async () => {
    const clients = {
      none: {},
      own: {
        traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
        tracestate: 'vendor=opaque',
      },
      // Upper-case hex is not W3C's: replaced, and a tracestate without its traceparent dropped.
      malformed: {
        traceparent: '00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01',
        tracestate: 'x=y',
      },
      zero: { traceparent: `00-${'0'.repeat(32)}-00f067aa0ba902b7-01` },
    };
    const answers = Object.fromEntries(
      await Promise.all(
        Object.entries(clients).map(async ([marker, headers]) => {
          const answer = await fetch(`${balancer}/login?marker=trace-${marker}`, { headers });
          return [
            marker,
            {
              id: answer.headers.get('x-request-id') ?? '',
              traceparent: answer.headers.get('echo-traceparent'),
              tracestate: answer.headers.get('echo-tracestate'),
            },
          ] as const;
        }),
      ),
    );
    expect(answers.own).toMatchObject(clients.own);
    for (const marker of ['none', 'malformed', 'zero']) {
      const { id, traceparent, tracestate } = answers[marker]!;
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      // Trace id: the request id; parent span id: its last 16 digits; sampled.
      expect(traceparent).toBe(`00-${id}-${id.slice(16)}-01`);
      expect(tracestate).toBeNull();
    }
    // The access log says the same (its line is written as the answer goes out).
    await vi.waitFor(() => {
      const log = readFileSync(join(runDir, 'access.log'), 'utf8');
      for (const [marker, { traceparent }] of Object.entries(answers)) {
        const line = log.split('\n').find((entry) => entry.includes(`marker=trace-${marker}`));
        expect(line).toContain(`traceparent=${traceparent}`);
      }
    });
  });
});
