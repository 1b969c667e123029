// The server's CPU per request (issue 31), as a ratio to a trivial Fastify route measured in the
// same run: the compiled server's user+system CPU (/proc/<pid>/stat) over a fixed load of each kind,
// divided by the requests it answered 2xx; beside it PostgreSQL's CPU (its processes in /proc) and
// the statements each request cost (pg_stat_statements). The load is what tenants bring: a new
// request id in every arrival's address (the customer portal sends each tenant through the provider),
// the letter's /register link without one, the login page's failed-login counter for an e-mail of its
// own, every request from an address of its own (X-Forwarded-For, as behind the load balancer) with
// the headers a browser sends. Each figure comes with the machine's state during its measurement:
// the 1-minute load average and the CPU that processes other than the bench's own used (/proc/stat
// less the bench, the servers and PostgreSQL); above BUSY_SHARE_OF_A_CORE the figure is printed but
// its budget is not judged. Only ever 127.0.0.1.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { nodeArguments } from '../scripts/build-node-apps.mjs';
import { summariseProfile } from './cpu-profile.mjs';
import { CONNECTIONS, load } from './load.mjs';
import {
  BUSY_SHARE_OF_A_CORE,
  machineCpuMs,
  machineStateBetween,
  processCpuMs,
  threadCpuMs,
  threadDeltaMs,
  treeCpuMs,
  treeDeltaMs,
} from './proc-cpu.mjs';
import { freePort, startServer } from './server.mjs';

/**
 * Each load first runs unmeasured this long (V8 compiles the path; its pace sets the measured run's
 * size), then, once the server is quiet again, as many requests as it answered in COST_SECONDS at
 * that pace: a fixed number, every one answered before the run ends, so no request is half in the
 * measured CPU and not among the answers.
 */
export const COST_WARMUP_S = 2;
export const COST_SECONDS = 6;
/**
 * Each load for this long, unmeasured, on the server before any is measured: the server's steady
 * state, not its start. After 2 s of each, V8's optimising compilers were still at work in the
 * measured window: their worker threads took 1.2 s of CPU in 7 s of the /login load, about 150 µs
 * of its 0.9–1.1 ms per request; after 8 s, 0.2–0.4 s.
 */
const SERVER_WARMUP_S = 8;
/** The profiled /register load (`--profile`). */
const PROFILE_SECONDS = 8;

/**
 * TRUST_PROXY: every request comes with an address of its own in X-Forwarded-For, as tenants do
 * behind the load balancer (the limit of fresh sign-in requests per address and the counter's limits
 * per address would otherwise refuse the bench, one address standing in for thousands).
 * SHUTDOWN_DRAIN_SECONDS=0: the server stops at once when the bench is done with it.
 */
const COST_SERVER_ENV = { TRUST_PROXY: 'true', SHUTDOWN_DRAIN_SECONDS: '0' };
/** What a browser sends with a page (the encodings as issue 31 gives them). */
const PAGE_HEADERS = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'accept-encoding': 'br, gzip, deflate',
  'accept-language': 'de-CH',
};
/** What the login page's fetch sends (apps/portal/src/api/failed-login-counter.ts). */
const CALL_HEADERS = {
  accept: 'application/json',
  'accept-encoding': 'br, gzip, deflate',
  'accept-language': 'de-CH',
};
const READY_TIMEOUT_MS = 20_000;
const QUIET_WAIT_MS = 5000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

let addresses = 0;
/** A client address of its own for each request: 10.0.0.1, 10.0.0.2, … */
function nextAddress() {
  addresses = (addresses % 0xfffffe) + 1;
  return `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;
}

/**
 * The loads, the trivial route first: each gives the next request's path and headers.
 * @param {{ provider: { authorize(): string } }} server
 */
function workloadsOf(server) {
  return [
    {
      key: 'trivial',
      name: 'trivial Fastify route, GET /',
      headers: PAGE_HEADERS,
      next: () => ({ path: '/', headers: { 'x-forwarded-for': nextAddress() } }),
    },
    {
      key: 'login',
      name: 'GET /login as tenants arrive (a new request id each, from the provider)',
      headers: PAGE_HEADERS,
      next: () => ({ path: server.provider.authorize(), headers: { 'x-forwarded-for': nextAddress() } }),
    },
    {
      key: 'register',
      // The letter's link (apps/server/src/mail/links.ts, registerLink): a code, the tenant, no request id.
      name: "GET /register from a letter's link (no request id)",
      headers: PAGE_HEADERS,
      next: () => ({
        path: `/register?registrationcode=${randomUUID()}&subdomain=demo`,
        headers: { 'x-forwarded-for': nextAddress() },
      }),
    },
    {
      key: 'counter',
      // As the login page asks before a sign-in (use-login.ts): no `after`, so the answer does not wait.
      name: 'GET /user-login-failed-counter?subdomain&email (a new e-mail each)',
      headers: CALL_HEADERS,
      next: () => ({
        path: `/user-login-failed-counter?${new URLSearchParams({ subdomain: 'demo', email: `tenant-${randomUUID().slice(0, 13)}@example.ch` })}`,
        headers: { 'x-forwarded-for': nextAddress() },
      }),
    },
  ];
}

/**
 * The trivial route's server, with the server's Node and node flags.
 * @param {string} root
 */
async function startTrivialRoute(root) {
  const port = await freePort();
  // The server's node flags (all but its last argument, the server's own entry), then this app.
  const flags = nodeArguments('server').slice(0, -1);
  const child = spawn(process.execPath, [...flags, join(root, 'bench/trivial-route.mjs')], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const origin = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  };
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The trivial route's server exited (${child.exitCode})`);
    try {
      if ((await fetch(`${origin}/`)).status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The trivial route's server did not answer within ${READY_TIMEOUT_MS / 1000} s`);
    }
    await sleep(25);
  }
  return { origin, pid: /** @type {number} */ (child.pid), stop };
}

/**
 * Calls of each statement in the server's database so far (pg_stat_statements), the bench's own
 * readings left out.
 * @param {pg.Client} db
 * @returns {Promise<Map<string, { calls: number, query: string }>>}
 */
async function statementCalls(db) {
  const { rows } = await db.query(
    `select s.queryid::text as id, sum(s.calls)::float8 as calls, min(s.query) as query
       from pg_stat_statements s join pg_database d on d.oid = s.dbid
      where d.datname = current_database() and s.query not like '%pg_stat_statements%'
      group by s.queryid`,
  );
  return new Map(rows.map((row) => [row.id, { calls: row.calls, query: row.query }]));
}

/** @param {number} pid @param {number} postgresPid */
function reading(pid, postgresPid) {
  return {
    at: performance.now(),
    machine: machineCpuMs().busy,
    ours: treeCpuMs(process.pid),
    process: processCpuMs(pid),
    threads: threadCpuMs(pid),
    postgres: treeCpuMs(postgresPid),
  };
}

/**
 * Until the process has been quiet for a moment (the requests still under way when a load stopped
 * are done), at most QUIET_WAIT_MS.
 * @param {number} pid
 */
async function quietAgain(pid) {
  const deadline = Date.now() + QUIET_WAIT_MS;
  let last = processCpuMs(pid);
  while (Date.now() < deadline) {
    await sleep(100);
    const now = processCpuMs(pid);
    // At most two clock ticks of CPU in 100 ms: nothing is being answered any more.
    if (now - last <= 20) return;
    last = now;
  }
}

/** @param {Record<string, number>} statusCodes */
const answered2xx = (statusCodes) =>
  Object.entries(statusCodes).reduce((sum, [code, count]) => (code.startsWith('2') ? sum + count : sum), 0);

/**
 * One load: warm-up, then measured.
 * @param {ReturnType<typeof workloadsOf>[number]} workload
 * @param {{ origin: string, pid: number, postgresPid: number, db: pg.Client }} target
 */
async function measureWorkload(workload, { origin, pid, postgresPid, db }) {
  const options = { headers: workload.headers, nextRequest: workload.next };
  const warmUp = await load(`${origin}/`, { ...options, duration: COST_WARMUP_S });
  const amount = Math.max(CONNECTIONS * 10, Math.round(warmUp.requestsPerSecond * COST_SECONDS));
  await quietAgain(pid);
  const statementsBefore = await statementCalls(db);
  const before = reading(pid, postgresPid);
  const figures = await load(`${origin}/`, { ...options, amount });
  const after = reading(pid, postgresPid);
  const statementsAfter = await statementCalls(db);

  const ok = answered2xx(figures.statusCodes);
  const perRequestUs = (ms) => (ok > 0 ? (ms * 1000) / ok : Number.NaN);
  const statements = [...statementsAfter]
    .map(([id, { calls, query }]) => ({ query, calls: calls - (statementsBefore.get(id)?.calls ?? 0) }))
    .filter((statement) => statement.calls > 0)
    .sort((a, b) => b.calls - a.calls);
  // What requests ran: the background jobs' statements (the outbox's poll every 2 s, housekeeping)
  // come at their own pace, a handful in a load of thousands; a statement run by 1 % of the requests
  // or more is the requests'.
  const byRequests = statements.filter((statement) => statement.calls >= ok * 0.01);
  const statementCount = byRequests.reduce((sum, statement) => sum + statement.calls, 0);
  return {
    name: workload.name,
    example: workload.next().path,
    seconds: (after.at - before.at) / 1000,
    requests: figures.requests,
    answered2xx: ok,
    non2xx: figures.non2xx,
    errors: figures.errors,
    statusCodes: figures.statusCodes,
    requestsPerSecond: figures.requestsPerSecond,
    latency: figures.latency,
    cpuPerRequestUs: perRequestUs(after.process - before.process),
    threadsMs: threadDeltaMs(before.threads, after.threads),
    postgres: {
      cpuPerRequestUs: perRequestUs(treeDeltaMs(before.postgres, after.postgres)),
      statementsPerRequest: ok > 0 ? statementCount / ok : Number.NaN,
      backgroundStatements: statements.length - byRequests.length,
      statements: byRequests.slice(0, 6).map(({ query, calls }) => ({
        query: query.replace(/\s+/g, ' ').slice(0, 120),
        perRequest: ok > 0 ? calls / ok : Number.NaN,
      })),
    },
    machine: machineStateBetween(before, after),
  };
}

/**
 * The three loads on a compiled server of its own (PostgreSQL with pg_stat_statements), one after
 * the other, and the trivial route's server before, between and after them; ratios to the median of
 * the trivial route's three figures of CPU per request.
 * @param {string} root
 * @param {{ onStop?: (stop: () => Promise<void>) => () => void }} [options] onStop registers a stop
 *   for an interrupted run and returns its unregistration
 */
export async function measureServerCost(root, { onStop = () => () => undefined } = {}) {
  const trivial = await startTrivialRoute(root);
  const forgetTrivial = onStop(trivial.stop);
  let server;
  let forgetServer = () => undefined;
  const db = { client: /** @type {pg.Client | undefined} */ (undefined) };
  try {
    server = await startServer(root, COST_SERVER_ENV, { statementStats: true });
    forgetServer = onStop(server.stop);
    db.client = new pg.Client({ connectionString: server.databaseUrl });
    await db.client.connect();
    const postgresPid = server.postgresPid();
    const [trivialLoad, ...loads] = workloadsOf(server);
    const announce = (workload) =>
      console.log(
        `  ${workload.name}: ${COST_WARMUP_S} s warm-up, then as many requests as ${COST_SECONDS} s at its pace…`,
      );
    const target = { origin: server.origin, pid: server.pid, postgresPid, db: db.client };
    const trivialTarget = { ...target, origin: trivial.origin, pid: trivial.pid };
    /** @type {Record<string, any>[]} */
    const trivialRounds = [];
    /** @type {Record<string, any>} */
    const measured = {};
    // The trivial route before the loads, between them and after them: its own figure varied by
    // a third from one measurement to the next (39–75 µs), and the median of three, taken around
    // the loads, keeps one lucky or unlucky round from deciding every ratio.
    const trivialRound = async () => {
      announce(trivialLoad);
      trivialRounds.push(await measureWorkload(trivialLoad, trivialTarget));
    };
    // Every load before any is measured: the first one measured on a fresh server paid for what its
    // own 2 s warm-up had not finished (V8's later tiers, the database pool's connections and their
    // prepared statements), 1.2–1.5× its next rounds on the same server.
    console.log(`  every load for ${SERVER_WARMUP_S} s, unmeasured, so that the server is warm…`);
    for (const workload of loads) {
      await load(`${server.origin}/`, {
        headers: workload.headers,
        nextRequest: workload.next,
        duration: SERVER_WARMUP_S,
      });
    }
    await trivialRound();
    for (const [index, workload] of loads.entries()) {
      if (index === Math.floor(loads.length / 2)) await trivialRound();
      announce(workload);
      measured[workload.key] = await measureWorkload(workload, target);
    }
    await trivialRound();
    const byCost = [...trivialRounds].sort((a, b) => a.cpuPerRequestUs - b.cpuPerRequestUs);
    /** @type {Record<string, any>} */
    const workloads = {
      trivial: { ...byCost[1], roundsUs: trivialRounds.map((round) => round.cpuPerRequestUs) },
      ...measured,
    };
    const base = workloads.trivial;
    for (const [key, figures] of Object.entries(workloads)) {
      if (key === 'trivial') continue;
      figures.ratio = figures.cpuPerRequestUs / base.cpuPerRequestUs;
      figures.postgres.ratio = figures.postgres.cpuPerRequestUs / base.cpuPerRequestUs;
      // A ratio is as good as both of its measurements.
      figures.isJudged = !figures.machine.isBusy && !base.machine.isBusy;
    }
    return {
      connections: CONNECTIONS,
      warmUpSeconds: COST_WARMUP_S,
      seconds: COST_SECONDS,
      busyShareOfACore: BUSY_SHARE_OF_A_CORE,
      workloads,
    };
  } finally {
    await db.client?.end().catch(() => undefined);
    await server?.stop();
    forgetServer();
    await trivial.stop();
    forgetTrivial();
  }
}

/** Monotonic µs: the clock V8's CPU profiles count in (CLOCK_MONOTONIC on Linux). */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Where the compiled server's time goes under one of the loads above (`register`: issue 31's "what
 * Mantine's server rendering costs"): a server of its own started with `--cpu-prof`, loaded as
 * above; the main thread's samples within the measured window summed by package (cpu-profile.mjs),
 * the other threads' CPU (V8's helpers, the libuv pool) from /proc.
 * @param {string} root
 * @param {{ onStop?: (stop: () => Promise<void>) => () => void, load?: string }} [options]
 */
export async function profileLoad(root, { onStop = () => () => undefined, load: key = 'register' } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'concierge-bench-profile-'));
  try {
    const server = await startServer(root, COST_SERVER_ENV, {
      nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
    });
    const forget = onStop(server.stop);
    let window;
    try {
      const workload = workloadsOf(server).find((candidate) => candidate.key === key);
      if (!workload) throw new Error(`No load ${key} to profile`);
      const options = { headers: workload.headers, nextRequest: workload.next };
      const warmUp = await load(`${server.origin}/`, { ...options, duration: SERVER_WARMUP_S });
      const amount = Math.max(CONNECTIONS * 10, Math.round(warmUp.requestsPerSecond * PROFILE_SECONDS));
      await quietAgain(server.pid);
      const before = { us: monotonicUs(), ...reading(server.pid, server.postgresPid()) };
      const figures = await load(`${server.origin}/`, { ...options, amount });
      const after = { us: monotonicUs(), ...reading(server.pid, server.postgresPid()) };
      const ok = answered2xx(figures.statusCodes);
      window = {
        load: workload.name,
        fromUs: before.us,
        toUs: after.us,
        answered2xx: ok,
        non2xx: figures.non2xx + figures.errors,
        cpuPerRequestUs: ((after.process - before.process) * 1000) / ok,
        processMs: after.process - before.process,
        threadsMs: threadDeltaMs(before.threads, after.threads),
        machine: machineStateBetween(before, after),
      };
    } finally {
      // The profile is written when the server exits.
      await server.stop();
      forget();
    }
    const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
    if (!file) throw new Error('The profiled server wrote no .cpuprofile');
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    if (window.fromUs < profile.startTime || window.toUs > profile.endTime) {
      throw new Error('The measured window is not within the profile: the clocks differ');
    }
    return { ...window, ...summariseProfile(profile, { root, fromUs: window.fromUs, toUs: window.toUs }) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
