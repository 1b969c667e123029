import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVariant, NODE_APPS } from './build-node-apps.mjs';
import {
  type Cluster,
  freeClusterPorts,
  NGINX_FAIL_TIMEOUT_SECONDS,
  type StartLine,
  startCluster,
} from './cluster.mjs';

// The cluster as `npm run cluster` runs it — three server instances behind nginx on one PostgreSQL —
// on free ports with throw-away data and a PostgreSQL of its own (the outage test stops it). What
// the instances share, what a stopped instance costs, what a stopped database looks like, and a
// release shipped as an operator ships it — onto the next build (one more migration) and back, the
// webhook key rotated on the way — from outside: every request goes to 127.0.0.1.
//
// Every `npm test` runs this file, on two cores shared with the rest of the suite, so the load is
// paced (a few dozen requests a second, each client waiting for its answer: enough for every moment
// of a restart, and no CPU burner) and the waits are the ones the assertions need: the SIGTERM load
// lasts 10 s, the outage 5 s. CLUSTER_TEST_LOAD_SECONDS and CLUSTER_TEST_OUTAGE_SECONDS make them
// longer (docs/operations.md gives the figures of a 30 s load and a 20 s outage:
// CLUSTER_TEST_LOAD_SECONDS=30 CLUSTER_TEST_OUTAGE_SECONDS=20 npx vitest run scripts/cluster.test.ts).
const LOAD_SECONDS = Number(process.env.CLUSTER_TEST_LOAD_SECONDS ?? 10);
const OUTAGE_SECONDS = Number(process.env.CLUSTER_TEST_OUTAGE_SECONDS ?? 5);
const DRAIN_SECONDS = 1.5;
const ROOT = fileURLToPath(new URL('..', import.meta.url));

const ADMIN_TOKEN = 'concierge-dev-admin-token';
const DEMO = { email: 'demo@concierge.test', clientId: 'property-portal-demo' };

let cluster: Cluster;
let database: pg.Pool;
let dataDir: string;
/** nginx, by address rather than by `localhost`. */
let balancer: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'concierge-cluster-test-'));
  // The embedded PostgreSQL may run as another user (as root: `postgres`); it must reach its folder.
  chmodSync(dataDir, 0o755);
  cluster = await startCluster({
    ports: await freeClusterPorts(),
    dataDir,
    quiet: !process.env.CLUSTER_TEST_VERBOSE,
    throwAwayData: true,
    embeddedDatabase: true,
    drainSeconds: DRAIN_SECONDS,
    // The load comes from one address: as from behind a carrier's NAT, every page may get a request.
    env: { LOG_LEVEL: 'warn', SIGN_IN_REQUESTS_PER_ADDRESS_PER_MINUTE: '1000000' },
  });
  balancer = cluster.urls.portal.replace('localhost', '127.0.0.1');
  database = new pg.Pool({ connectionString: cluster.database, max: 2 });
  // Errors of idle connections while PostgreSQL is stopped are expected; queries report their own.
  database.on('error', () => undefined);
}, 120_000);

afterAll(async () => {
  await database?.end();
  await cluster?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(NEXT_BUILD_DIR, { recursive: true, force: true });
}, 60_000);

async function query<Row>(text: string, values: unknown[] = []): Promise<Row[]> {
  return (await database.query(text, values)).rows as Row[];
}

async function waitFor<T>(what: string, read: () => Promise<T>, isDone: (value: T) => boolean, ms = 15_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (isDone(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A value of a Prometheus series of one instance, summed over the series that carry `labels`. */
async function metric(url: string, name: string, labels: Record<string, string>): Promise<number> {
  const text = await (await fetch(url)).text();
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) && wanted.every((label) => line.includes(label)))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

/**
 * The processes of the cluster that have ended, each with the end of what it printed: a test that
 * finds one gone says why (quiet as the cluster runs here, the output is kept all the same).
 */
function endedProcesses(): {
  name: string;
  exitCode: number | null;
  signal: string | null;
  output: string;
}[] {
  return cluster.children
    .filter(({ child }) => child.exitCode !== null || child.signalCode !== null)
    .map(({ name, child, output }) => ({
      name,
      exitCode: child.exitCode,
      signal: child.signalCode,
      output: output(),
    }));
}

async function metricPerInstance(name: string, labels: Record<string, string>): Promise<number[]> {
  return Promise.all(cluster.instances.map((instance) => metric(instance.metricsUrl, name, labels)));
}

/** The portal's calls: JSON, no Origin (not a browser), through nginx. */
function portalCall(name: string, body: unknown): Promise<Response> {
  return fetch(`${balancer}/api/cidaas-webhook/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
}

async function createCodes(count: number): Promise<Response> {
  return fetch(`${balancer}/api/admin/codes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ tenant: 'demo', count }),
    signal: AbortSignal.timeout(20_000),
  });
}

/** Which instance answered each request of the access log whose request line contains `marker`. */
function upstreamsOf(marker: string): string[] {
  return readFileSync(cluster.balancer.accessLog, 'utf8')
    .split('\n')
    .filter((line) => line.includes(marker))
    .map((line) => /upstream=(\S+)/.exec(line)?.[1] ?? '');
}

/** A GET from another loopback address than nginx's own, with headers of our choice. */
function getFrom(
  localAddress: string,
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { localAddress, headers, agent: false }, (incoming) => {
      let body = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => {
        body += chunk;
      });
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('what the instances share in PostgreSQL', () => {
  it('three failed sign-ins, each counted by another instance, lock the account once', async () => {
    // One sign-in request of the demo tenant at the provider, as its hosted page has it.
    const generated = await fetch(`${cluster.urls.provider}/authz-srv/authrequest/authz/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: DEMO.clientId,
        redirect_uri: `${cluster.urls.propertyPortal}/callback`,
        response_type: 'code',
        scope: 'openid',
      }),
    });
    const requestId = ((await generated.json()) as { data: { requestId: string } }).data.requestId;
    const counter = async () =>
      (
        await query<{ counter: string }>(
          `select count(*) as counter from concierge.account_failures f join concierge.account_protection a
             on a.email = f.email where f.email = $1 and f.occurred_at > a.counted_since`,
          [DEMO.email],
        )
      ).map((row) => Number(row.counter))[0] ?? 0;
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const answer = await fetch(`${cluster.urls.provider}/login-srv/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          username: DEMO.email,
          password: 'Wrong-Passw0rd!',
          username_type: 'email',
          requestId,
        }),
        redirect: 'manual',
      });
      expect(answer.status).toBe(303);
      // The provider's LOGIN_FAILURE webhook goes to the portal's address, nginx, which hands the
      // three of them to the instances in turn; nothing else goes through nginx meanwhile.
      await waitFor(`the counter after failure ${attempt}`, counter, (value) => value === attempt);
    }
    const lock = await waitFor(
      'the lock',
      () =>
        query<{ state: string }>(
          'select lock_state as state from concierge.account_protection where email = $1',
          [DEMO.email],
        ),
      (rows) => rows[0]?.state === 'locked',
    );
    expect(lock).toHaveLength(1);
    const applied = await metricPerInstance('concierge_webhook_events_total', {
      eventtype: 'LOGIN_FAILURE',
      outcome: 'applied',
    });
    expect(applied).toEqual([1, 1, 1]);
    // One status change at the provider, from whichever instance counted the third failure.
    const lockCalls = await metricPerInstance('concierge_provider_call_duration_seconds_count', {
      operation: 'set_status',
    });
    expect(lockCalls.reduce((sum, calls) => sum + calls, 0)).toBe(1);
    const [user] = await query<{ status: string }>('select status from provider.users where email = $1', [
      DEMO.email,
    ]);
    expect(user?.status).toBe('DECLINED');
    // Every instance tells the login page the same.
    for (const instance of cluster.instances) {
      const answer = await fetch(
        `${instance.url}/user-login-failed-counter?subdomain=demo&email=${encodeURIComponent(DEMO.email)}`,
      );
      expect(await answer.json()).toEqual([{ counter: 3 }]);
    }
    console.log(
      `failed sign-ins counted per instance: ${applied.join(', ')}; lock calls: ${lockCalls.join(', ')}`,
    );
  });

  it('sends each e-mail of the outbox once, though every instance sends from it', async () => {
    const created = await createCodes(4);
    expect(created.status).toBe(201);
    const { codes } = ((await created.json()) as { data: { codes: { code: string }[] } }).data;
    const emails = codes.map((_code, index) => `cluster-${index}-${randomUUID().slice(0, 8)}@example.ch`);
    // Four registrations at once through nginx: four activation e-mails due at the same moment, for
    // three outbox workers polling every 2 s.
    const registered = await Promise.all(
      codes.map(({ code }, index) =>
        portalCall('register-user', {
          email: emails[index],
          password: 'Sonnen-Weg7!',
          registrationcode: code,
          clientid: DEMO.clientId,
        }),
      ),
    );
    expect(registered.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    // And a resend for the first: a new link, one more e-mail.
    expect((await portalCall('resend-account-activation-email', { email: emails[0] })).status).toBe(200);
    const expected = [2, 1, 1, 1];
    const mailsTo = async () =>
      Promise.all(
        emails.map(async (email) => {
          const answer = await fetch(`${cluster.urls.mail}/api/messages?to=${encodeURIComponent(email)}`);
          return ((await answer.json()) as unknown[]).length;
        }),
      );
    await waitFor('the activation e-mails', mailsTo, (counts) =>
      counts.every((count, i) => count >= expected[i]!),
    );
    // One more poll of every worker (every 2 s): a second sending would show now.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await mailsTo()).toEqual(expected);
    const rows = await query<{ attempts: number; sent: boolean }>(
      'select attempts, sent_at is not null as sent from concierge.mail_outbox where recipient = any($1)',
      [emails],
    );
    expect(rows).toHaveLength(5);
    expect(rows.every((row) => row.sent && row.attempts === 1)).toBe(true);
  });

  it('counts a rate limit across instances, per client address as nginx saw it', async () => {
    const email = `limited-${randomUUID().slice(0, 8)}@example.ch`;
    const url = `${balancer}/user-login-failed-counter?subdomain=demo&email=${encodeURIComponent(email)}`;
    const statuses: number[] = [];
    // 20 per e-mail and minute: 21 requests, 7 for each instance, from 127.0.0.2 with a forged
    // X-Forwarded-For that nginx replaces.
    for (let index = 0; index < 21; index += 1) {
      statuses.push((await getFrom('127.0.0.2', url, { 'x-forwarded-for': '203.0.113.9' })).status);
    }
    expect(statuses.slice(0, 20).every((status) => status === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
    expect(new Set(upstreamsOf(encodeURIComponent(email))).size).toBe(3);
    const keys = await query<{ key: string; hits: number }>(
      `select key, hits from concierge.rate_limits where key like 'counter:%' and key not like '%@concierge.test'`,
    );
    expect(keys).toEqual(
      expect.arrayContaining([
        { key: `counter:email:${email}`, hits: 21 },
        { key: 'counter:ip:127.0.0.2', hits: 21 },
      ]),
    );
    expect(keys.some((row) => row.key.includes('203.0.113.9'))).toBe(false);
  });
});

/** A pause of the load's pacing or the recipe's wait for nginx; never one that stands in for a condition. */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * `send` by `clients` clients taking turns until stopped, together at most `perSecond` a second: each
 * waits for its answer and then for its next turn. A bounded rate, enough to hit every moment of a
 * restart, which the machine hardly notices; and never more under way than there are clients, so
 * that a slow instance slows the load instead of drowning in it.
 */
function paced(perSecond: number, clients: number, send: () => Promise<void>) {
  const turnMs = (1000 * clients) / perSecond;
  let isRunning = true;
  const client = async (index: number) => {
    await pause((index * turnMs) / clients);
    while (isRunning) {
      const startedAt = Date.now();
      await send();
      await pause(startedAt + turnMs - Date.now());
    }
  };
  const running = Array.from({ length: clients }, (_unused, index) => client(index));
  return {
    async stop() {
      isRunning = false;
      await Promise.all(running);
    },
  };
}

/**
 * Pages and the like through nginx, four clients at `perSecond` in all, in turn through `paths`;
 * any answer but 200 fails.
 */
function pagesThroughNginx(perSecond: number, paths: string[]) {
  const results = { sent: 0, failed: [] as string[] };
  const load = paced(perSecond, 4, async () => {
    const path = paths[results.sent % paths.length]!;
    results.sent += 1;
    try {
      const answer = await fetch(`${balancer}${path}`, {
        headers: { accept: 'text/html' },
        signal: AbortSignal.timeout(10_000),
      });
      await answer.arrayBuffer();
      if (answer.status !== 200) results.failed.push(`${path}: ${answer.status}`);
    } catch (error) {
      results.failed.push(`${path}: ${String(error)}`);
    }
  });
  return { results, stop: load.stop };
}

interface Probe {
  at: number;
  kind: 'page' | 'page without database' | 'write' | 'readiness';
  status: number;
  ms: number;
  body: string;
  headers: Headers | undefined;
}

describe(`PostgreSQL stopped for ${OUTAGE_SECONDS} s`, () => {
  it('answers "try again later" meanwhile, loses nothing acknowledged and recovers by itself', async () => {
    const postgres = cluster.postgres;
    if (!postgres) throw new Error('the cluster test needs the embedded PostgreSQL');
    const probes: Probe[] = [];
    const acknowledged: string[] = [];
    let isProbing = true;
    const probe = async (kind: Probe['kind'], send: () => Promise<Response>) => {
      const started = Date.now();
      try {
        const answer = await send();
        const body = await answer.text();
        probes.push({
          at: started,
          kind,
          status: answer.status,
          ms: Date.now() - started,
          body,
          headers: answer.headers,
        });
        if (kind === 'write' && answer.status === 201) {
          acknowledged.push(
            ...(JSON.parse(body) as { data: { codes: { code: string }[] } }).data.codes.map(
              (row) => row.code,
            ),
          );
        }
      } catch (error) {
        probes.push({
          at: started,
          kind,
          status: 0,
          ms: Date.now() - started,
          body: String(error),
          headers: undefined,
        });
      }
    };
    // A page that needs the database (a request id without a tenant, as cidaas sends a failed
    // sign-in back: its tenant is looked up), in French; one that does not, in R5's brand; a write
    // (a registration code); the balancer's readiness.
    const loop = (async () => {
      while (isProbing) {
        await Promise.all([
          probe('page', () =>
            fetch(`${balancer}/login?requestId=${randomUUID()}`, {
              headers: { accept: 'text/html', 'accept-language': 'fr-CH' },
              signal: AbortSignal.timeout(20_000),
            }),
          ),
          probe('page without database', () =>
            fetch(`${balancer}/login?subdomain=r5`, {
              headers: { accept: 'text/html', 'accept-language': 'fr-CH' },
              signal: AbortSignal.timeout(20_000),
            }),
          ),
          probe('write', () => createCodes(1)),
          probe('readiness', () => fetch(`${balancer}/readyz`, { signal: AbortSignal.timeout(20_000) })),
        ]);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const stoppedAt = Date.now();
    let restartedAt = 0;
    try {
      await postgres.stopServer();
      await new Promise((resolve) => setTimeout(resolve, OUTAGE_SECONDS * 1000));
    } finally {
      await postgres.startServer();
      restartedAt = Date.now();
    }
    // Each instance by itself, and a write through nginx. An instance that ended meanwhile is
    // reported with what it printed, not as a refused connection.
    const allReadyAt = await Promise.all(
      cluster.instances.map(async (instance) => {
        await waitFor(
          `${instance.name} ready again`,
          async () => {
            expect(endedProcesses()).toEqual([]);
            return (await fetch(`${instance.url}/readyz`)).status;
          },
          (status) => status === 200,
          30_000,
        );
        return Date.now();
      }),
    );
    await waitFor(
      'a write through nginx',
      async () =>
        probes.filter((row) => row.kind === 'write' && row.at > restartedAt && row.status === 201).length,
      (count) => count > 0,
      30_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    isProbing = false;
    await loop;

    // During the outage (its first half second aside, while the stop takes effect) every answer is 503.
    const during = probes.filter((row) => row.at > stoppedAt + 500 && row.at + row.ms < restartedAt);
    const pages = during.filter((row) => row.kind === 'page');
    const writes = during.filter((row) => row.kind === 'write');
    expect(pages.length).toBeGreaterThan(5);
    expect(writes.length).toBeGreaterThan(5);
    for (const page of pages) {
      expect(page.status).toBe(503);
      expect(page.headers?.get('content-type')).toContain('text/html');
      expect(page.headers?.get('retry-after')).toBe('30');
      expect(page.body).toContain('<html lang="fr">');
      expect(page.body).toContain('Temporairement indisponible');
      // The tenant could not be looked up: the environment's default one.
      expect(page.body).toContain('Demo Immobilien AG');
    }
    for (const write of writes) {
      expect(write.status).toBe(503);
      expect(JSON.parse(write.body)).toMatchObject({
        success: false,
        status: 503,
        error: { code: 'service_unavailable' },
      });
    }
    expect(during.filter((row) => row.kind === 'readiness').every((row) => row.status === 503)).toBe(true);
    const withoutDatabase = during.filter((row) => row.kind === 'page without database');
    expect(withoutDatabase.length).toBeGreaterThan(5);
    expect(withoutDatabase.every((row) => row.status === 200)).toBe(true);
    // Throughout: an answer or "try again later", never a failure of another kind, never a hang.
    expect(probes.filter((row) => ![200, 201, 503].includes(row.status))).toEqual([]);
    const slowest = Math.max(...probes.map((row) => row.ms));
    expect(slowest).toBeLessThan(5000);
    // Every code that was acknowledged is there.
    const stored = await query<{ code: string }>(
      'select code from concierge.registration_codes where code = any($1)',
      [acknowledged],
    );
    expect(stored).toHaveLength(acknowledged.length);
    // Nobody had to restart an instance (nor the provider).
    expect(endedProcesses()).toEqual([]);
    const firstWriteAfter = probes.find(
      (row) => row.kind === 'write' && row.at > restartedAt && row.status === 201,
    );
    console.log(
      `PostgreSQL stopped ${((restartedAt - stoppedAt) / 1000).toFixed(1)} s: ${during.length} answers meanwhile: ` +
        `503 to ${pages.length} pages needing it, ${writes.length} writes and every readiness check, ` +
        `200 to ${withoutDatabase.length} pages without; slowest answer ${slowest} ms; ` +
        `instances ready ${allReadyAt.map((at) => at - restartedAt).join(', ')} ms after the restart, ` +
        `first write ${(firstWriteAfter?.at ?? 0) + (firstWriteAfter?.ms ?? 0) - restartedAt} ms after; ` +
        `${acknowledged.length} codes acknowledged, ${stored.length} stored`,
    );
  }, 120_000);
});

describe(`an instance stopped (SIGTERM) during ${LOAD_SECONDS} s of load through nginx`, () => {
  it('fails no request, and says "not ready" before it stops taking traffic', async () => {
    const victim = cluster.instances[1]!;
    const child = victim.child!;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    // The instance seen directly: when its readiness turns, that it still answers pages then, and
    // when it stops listening.
    const seen = { notReadyAt: 0, answeredWhileDraining: 0, refusedAt: 0 };
    let sigtermAt = 0;
    const watchReadiness = (async () => {
      while (!seen.refusedAt) {
        try {
          const ready = await fetch(`${victim.url}/readyz`, { signal: AbortSignal.timeout(2000) });
          if (ready.status === 503 && !seen.notReadyAt) seen.notReadyAt = Date.now();
        } catch {
          if (sigtermAt) seen.refusedAt = Date.now();
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const watchPages = (async () => {
      while (!seen.refusedAt) {
        try {
          const page = await fetch(`${victim.url}/login?subdomain=demo`, {
            signal: AbortSignal.timeout(2000),
          });
          await page.arrayBuffer();
          if (seen.notReadyAt && page.status === 200) seen.answeredWhileDraining += 1;
        } catch {
          // stopped listening: the readiness watch notes when
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const load = pagesThroughNginx(40, ['/login?subdomain=demo', '/readyz']);
    const { results } = load;
    await new Promise((resolve) => setTimeout(resolve, LOAD_SECONDS * 300));
    sigtermAt = Date.now();
    child.kill('SIGTERM');
    const exitCode = await exited;
    const exitedAt = Date.now();
    await Promise.all([watchReadiness, watchPages]);
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, sigtermAt + LOAD_SECONDS * 700 - Date.now())),
    );
    await load.stop();

    expect(exitCode).toBe(0);
    expect(results.failed).toEqual([]);
    expect(seen.notReadyAt).toBeGreaterThan(0);
    expect(seen.notReadyAt - sigtermAt).toBeLessThan(1000);
    expect(seen.notReadyAt).toBeLessThan(seen.refusedAt);
    expect(seen.answeredWhileDraining).toBeGreaterThan(0);
    expect(seen.refusedAt - sigtermAt).toBeGreaterThanOrEqual(DRAIN_SECONDS * 1000);
    const perInstance = cluster.instances.map(
      (instance) =>
        upstreamsOf('/login?subdomain=demo ').filter((address) => address.endsWith(`:${instance.port}`))
          .length,
    );
    console.log(
      `SIGTERM under load: ${results.sent} requests through nginx, ${results.failed.length} failed; ` +
        `not ready after ${seen.notReadyAt - sigtermAt} ms, ${seen.answeredWhileDraining} pages answered while draining, ` +
        `listening stopped after ${seen.refusedAt - sigtermAt} ms, exited (code ${exitCode}) after ${exitedAt - sigtermAt} ms; ` +
        `pages per instance: ${perInstance.join(', ')}`,
    );
  }, 120_000);
});

/**
 * Webhook deliveries through nginx, two senders at `perSecond` in all, as cidaas makes them, with
 * the key `keyNow()` names: sign-in events, each with an id and an account of its own (events of one
 * account take turns on its row, each holding a connection of its instance's pool), and any answer
 * other than 200 delivered again (cidaas-facts.md, "Webhooks": after 1, 5 and 10 minutes; here at
 * once, up to three times). A 401 is a refusal; a 502 is nginx's when an instance closed the
 * connection it had sent a POST on as it stopped (nginx never sends a POST on), which the delivery
 * again gets through.
 */
function webhookDeliveries(perSecond: number, keyNow: () => string) {
  const results = {
    sent: 0,
    delivered: [] as string[],
    refused: 0,
    deliveredAgain: [] as number[],
    neverDelivered: [] as string[],
  };
  const deliver = async () => {
    const id = randomUUID();
    results.sent += 1;
    const body = JSON.stringify({
      id,
      eventtype: 'LOGIN_WITH_CIDAAS',
      email: `rollout-${id}@example.ch`,
      timestamp: new Date().toISOString(),
    });
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      let outcome: number | string;
      try {
        const answer = await fetch(`${balancer}/api/cidaas-webhook/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': keyNow() },
          body,
          signal: AbortSignal.timeout(10_000),
        });
        await answer.arrayBuffer();
        if (answer.status === 200) {
          results.delivered.push(id);
          return;
        }
        if (answer.status === 401) results.refused += 1;
        outcome = answer.status;
      } catch (error) {
        outcome = String(error);
      }
      if (attempt === 4) results.neverDelivered.push(String(outcome));
      else results.deliveredAgain.push(typeof outcome === 'number' ? outcome : 0);
    }
  };
  const load = paced(perSecond, 2, deliver);
  return { results, stop: load.stop };
}

/** The server's own version (its package.json, bundled into each build). */
const PREVIOUS_VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'apps/server/package.json'), 'utf8')) as { version: string }
).version;
/** The next build: the server as it is, with one more migration and a version of its own. */
const NEXT_VERSION = `${PREVIOUS_VERSION}-next`;
const NEXT_MIGRATION = '9999_upgrade_probe';
/**
 * Its compiled main, from the root: one folder below apps/server, as dist/main.js is (the code builds
 * paths from import.meta.url), a folder of this run's own (another run's may come and go meanwhile).
 * Git-ignored, and removed after the tests.
 */
const NEXT_BUILD_OUTPUT = `apps/server/dist-next-${process.pid}/main.js`;
const NEXT_BUILD_DIR = dirname(join(ROOT, NEXT_BUILD_OUTPUT));

/**
 * esbuild, as it builds the server, appends one migration (a table `upgrade_probe`) to the export
 * of db/migrations.ts and gives the package.json the server bundles (its version) another version.
 */
const nextBuildChanges: Plugin = {
  name: 'next-build',
  setup(build) {
    build.onLoad({ filter: /[\\/]apps[\\/]server[\\/]src[\\/]db[\\/]migrations\.ts$/ }, async ({ path }) => ({
      loader: 'ts',
      contents: `${await readFile(path, 'utf8')}
migrations['${NEXT_MIGRATION}'] = {
  async up(db) {
    await db.schema.createTable('upgrade_probe').addColumn('id', 'integer', (column) => column.primaryKey()).execute();
  },
};
`,
    }));
    build.onLoad({ filter: /[\\/]apps[\\/]server[\\/]package\.json$/ }, async ({ path }) => ({
      loader: 'json',
      contents: JSON.stringify({ ...JSON.parse(await readFile(path, 'utf8')), version: NEXT_VERSION }),
    }));
  },
};

/** Builds the next build beside the real one; gives back its compiled main. */
async function buildNext(): Promise<string> {
  const [main] = NODE_APPS.find((app) => app.name === 'server')!.entries;
  await buildVariant([{ source: main!.source, output: NEXT_BUILD_OUTPUT }], {
    plugins: [nextBuildChanges],
    quiet: true,
  });
  return join(ROOT, NEXT_BUILD_OUTPUT);
}

describe('a rollout onto the next build and back, the webhook key rotated on the way, under load', () => {
  it('fails no page, refuses and loses no delivery, and every instance starts on each build', async () => {
    const previousBuild = cluster.instances[0]!.entry;
    const nextBuild = await buildNext();
    const oldKey = 'concierge-dev-webhook-key';
    const newKey = 'rotated-webhook-key-2026-11';
    let senderKey = oldKey;
    const isRunning = (index: number) => {
      const child = cluster.instances[index]!.child;
      return child !== undefined && child.exitCode === null && child.signalCode === null;
    };
    const stop = async (index: number) => {
      const child = cluster.instances[index]!.child!;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    };
    // Two instances answer, as the fewest a rollout can keep one of: the third is stopped first
    // (with three, one other would always be in; two is where stopping the next too soon shows) — the
    // one the SIGTERM test stopped, or else the last. Whatever else the tests before left stopped is
    // started again.
    const stoppedBefore = cluster.instances
      .map((_instance, index) => index)
      .filter((index) => !isRunning(index));
    const third = stoppedBefore[0] ?? cluster.instances.length - 1;
    const answering = cluster.instances.map((_instance, index) => index).filter((index) => index !== third);
    /** When one of the two that answer was last ready again: nginx takes it back fail_timeout later. */
    let lastReadyAt = 0;
    for (const index of stoppedBefore.slice(1)) {
      await cluster.restartInstance(index);
      lastReadyAt = Date.now();
    }
    /**
     * The recipe's wait before the next of the two that answer is stopped: nginx's fail_timeout since
     * the last of them was ready, so that it has taken that one back. (The third, stopped or started
     * meanwhile, takes none of them away.)
     */
    const untilTakenBack = () => pause(lastReadyAt + NGINX_FAIL_TIMEOUT_SECONDS * 1000 - Date.now());

    const pages = pagesThroughNginx(16, [
      '/login?subdomain=demo',
      '/config.json',
      '/register?subdomain=r5',
      '/readyz',
    ]);
    const deliveries = webhookDeliveries(8, () => senderKey);
    const startedAt = Date.now();
    if (isRunning(third)) await stop(third);
    const restarts: { rollout: string; name: string; ms: number; line: StartLine }[] = [];
    /**
     * The recipe of docs/operations.md onto a build and configuration: one instance at a time —
     * SIGTERM, its exit, the new one's /readyz — and nginx's fail_timeout before the next is
     * stopped; then the third, stopped first, is started onto the same build.
     */
    const rollOnto = async (rollout: string, change: { entry: string; env: Record<string, string> }) => {
      for (const index of [...answering, third]) {
        if (index !== third) await untilTakenBack();
        const at = Date.now();
        const line = await cluster.restartInstance(index, change);
        if (index !== third) lastReadyAt = Date.now();
        if (!line) throw new Error(`${cluster.instances[index]!.name} logged no start line`);
        restarts.push({ rollout, name: cluster.instances[index]!.name, ms: Date.now() - at, line });
      }
      return restarts.filter((restart) => restart.rollout === rollout).map((restart) => restart.line);
    };
    /** Each instance's build as its metrics say (their port opens just after /readyz's). */
    const buildsOf = (version: string) =>
      waitFor(
        `every instance on ${version}`,
        () =>
          Promise.all(
            cluster.instances.map(async (instance) => {
              const text = await fetch(instance.metricsUrl)
                .then((answer) => answer.text())
                .catch(() => '');
              return /^concierge_build_info\{[^}]*version="([^"]+)"/m.exec(text)?.[1];
            }),
          ),
        (versions) => versions.every((found) => found === version),
      );
    const probeMigrations = async () =>
      (
        await query<{ count: string }>('select count(*) from concierge.kysely_migration where name = $1', [
          NEXT_MIGRATION,
        ])
      ).map((row) => Number(row.count))[0];

    // The upgrade, with both webhook keys: docs/operations.md, "Upgrading" and "Rotating a secret"
    // steps 1 and 2. The first instance of the next build migrates, while the previous build serves.
    const upgraded = await rollOnto('upgrade', {
      entry: nextBuild,
      env: { WEBHOOK_API_KEY: `${oldKey},${newKey}`, LOG_LEVEL: 'info' },
    });
    await buildsOf(NEXT_VERSION);
    expect(upgraded.map((line) => line.build.version)).toEqual(cluster.instances.map(() => NEXT_VERSION));
    expect(upgraded.map((line) => line.migrations.ran)).toEqual([[NEXT_MIGRATION], [], []]);
    expect(upgraded.every((line) => line.migrations.newer.length === 0)).toBe(true);
    expect(upgraded.slice(1).every((line) => line.migrations.applied.includes(NEXT_MIGRATION))).toBe(true);
    const [table] = await query<{ found: boolean }>(
      `select to_regclass('concierge.upgrade_probe') is not null as found`,
    );
    expect(table?.found).toBe(true);
    expect(await probeMigrations()).toBe(1);
    // Step 3: the sender switches, once every instance takes both keys (the start lines show two, masked).
    for (const line of upgraded) expect(line.config.webhook).toMatchObject({ apiKeys: ['***', '***'] });
    const switchedAt = deliveries.results.sent;
    senderKey = newKey;
    // Back onto the previous build, with the new key alone (step 4). The third is stopped first
    // again: the one nginx may not have taken back yet.
    await stop(third);
    const rolledBack = await rollOnto('rollback', { entry: previousBuild, env: { WEBHOOK_API_KEY: newKey } });
    await Promise.all([pages.stop(), deliveries.stop()]);
    const durationS = (Date.now() - startedAt) / 1000;

    await buildsOf(PREVIOUS_VERSION);
    for (const line of rolledBack) {
      expect(line.build.version).toBe(PREVIOUS_VERSION);
      expect(line.migrations).toMatchObject({ ran: [], newer: [NEXT_MIGRATION] });
      expect(line.msg).toContain('starting without migrating: the schema has migrations of a newer build');
      expect(line.config.webhook).toMatchObject({ apiKeys: ['***'] });
    }
    expect(await probeMigrations()).toBe(1);
    // Every start logged its configuration with the secrets masked: none appears in a start line.
    const secrets = [oldKey, newKey, ADMIN_TOKEN, decodeURIComponent(new URL(cluster.database).password)];
    for (const { line } of restarts) {
      expect(line.config).toMatchObject({
        providerAdmin: { clientSecret: '***' },
        formSecrets: ['***'],
        adminApiTokens: ['***'],
      });
      for (const secret of secrets) expect(JSON.stringify(line)).not.toContain(secret);
    }
    expect(cluster.instances.map((_instance, index) => isRunning(index))).toEqual([true, true, true]);

    expect(pages.results.failed).toEqual([]);
    expect(pages.results.sent).toBeGreaterThan(100);
    const { results } = deliveries;
    expect(results.refused).toBe(0);
    expect(results.neverDelivered).toEqual([]);
    expect(results.deliveredAgain.filter((status) => status !== 502)).toEqual([]);
    expect(results.delivered).toHaveLength(results.sent);
    expect(switchedAt).toBeGreaterThan(10);
    expect(results.sent - switchedAt).toBeGreaterThan(10);
    // None lost: every delivery answered 200 is in PostgreSQL, once.
    const [stored] = await query<{ count: string }>(
      'select count(*) from concierge.processed_webhook_events where id = any($1)',
      [results.delivered],
    );
    expect(Number(stored?.count)).toBe(results.delivered.length);
    // Once the rotation is over, the old key is refused.
    const stale = await fetch(`${balancer}/api/cidaas-webhook/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': oldKey },
      body: JSON.stringify({
        id: randomUUID(),
        eventtype: 'ACCOUNT_MODIFIED',
        timestamp: new Date().toISOString(),
      }),
    });
    expect(stale.status).toBe(401);
    console.log(
      `Rollout onto ${NEXT_VERSION} (one more migration) and back to ${PREVIOUS_VERSION}, the webhook key ` +
        `rotated on the way, in ${durationS.toFixed(1)} s: ${pages.results.sent} page requests through nginx, ` +
        `${pages.results.failed.length} failed; ${results.sent} webhook deliveries (${switchedAt} with the old ` +
        `key, ${results.sent - switchedAt} with the new), ${results.refused} refused, ` +
        `${results.deliveredAgain.length} delivered again after a 502, ${results.neverDelivered.length} never ` +
        `delivered, ${stored?.count} stored; each instance stopped (the third: stopped already), started and ` +
        'ready after ' +
        restarts.map((restart) => `${restart.name} ${restart.ms} ms (${restart.rollout})`).join(', '),
    );
  }, 240_000);
});

describe('a tenant added and a brand changed in the registry file', () => {
  it('is served by every instance without a restart, failing no request', async () => {
    const shipped = readFileSync(cluster.tenantsFile, 'utf8');
    const load = pagesThroughNginx(40, ['/login?subdomain=demo', '/config.json']);
    const { results } = load;
    try {
      const registry = JSON.parse(shipped);
      const r5 = registry.tenants.find((tenant: { subdomain: string }) => tenant.subdomain === 'r5');
      registry.tenants.push({ ...r5, subdomain: 'neu', displayName: 'Neu Wohnen AG' });
      registry.tenants.find(
        (tenant: { subdomain: string }) => tenant.subdomain === 'demo',
      ).brand.primaryColor = '#2b8a3e';
      const changedAt = Date.now();
      writeFileSync(cluster.tenantsFile, JSON.stringify(registry, null, 2));
      const servedAfterMs = await Promise.all(
        cluster.instances.map(async (instance) => {
          await expect
            .poll(
              async () => {
                const [page, design] = await Promise.all([
                  fetch(`${instance.url}/password-set-success?subdomain=neu`).then((answer) => answer.text()),
                  fetch(`${instance.url}/api/designs/demo`).then(
                    (answer) => answer.json() as Promise<{ primaryColor?: string }>,
                  ),
                ]);
                return page.includes('<title>') && page.includes('Neu Wohnen AG') && design.primaryColor;
              },
              { timeout: 10_000, interval: 100 },
            )
            .toBe('#2b8a3e');
          return Date.now() - changedAt;
        }),
      );
      await load.stop();
      expect(results.failed).toEqual([]);
      console.log(
        `A tenant added and a brand changed in the registry file: served by each instance after ` +
          `${servedAfterMs.map((ms) => `${ms} ms`).join(', ')}, without a restart; ` +
          `${results.sent} requests through nginx meanwhile, ${results.failed.length} failed`,
      );
    } finally {
      await load.stop();
      writeFileSync(cluster.tenantsFile, shipped);
    }
  }, 60_000);
});
