// How soon Concierge's lock reaches the provider, on the cluster (scripts/cluster.mjs: three server
// instances behind nginx, one PostgreSQL, the embedded provider). Fresh accounts each get three
// wrong passwords at the provider's hosted-page login; the provider's LOGIN_FAILURE webhooks go
// through nginx to the instances, and the instance that counts the third asks for the lock and sets
// the user DECLINED at the provider at once (apps/server/src/accounts/protection/). Measured: from
// the third login's answer (its redirect) until the provider's own table says DECLINED — what a
// tenant waits for before the right password is refused. Only ever 127.0.0.1.
import pg from 'pg';
import { percentile } from './sign-in.mjs';

export const ACCOUNTS = 100;
/** Accounts under way at once: enough for webhooks to overlap, few enough to keep argon2 off the figures. */
export const CONCURRENCY = 4;
/**
 * Accounts run first and not counted: each instance's first lock also fetches its admin token and
 * opens its connections to the provider, a cost paid once per process, not per lock.
 */
export const WARM_UP_ACCOUNTS = 6;
/** How often the provider's table is read: the resolution of the figures. */
const POLL_MS = 10;
/** Not DECLINED by then counts as never locked: the instances' background retry (every 5 s) had two turns. */
export const NEVER_MS = 10_000;
/** After this many accounts never locked the rest are not tried: the lock is broken, 10 s each would tell no more. */
const GIVE_UP_AFTER = 8;
const CLIENT_ID = 'property-portal-demo';
const PASSWORD = 'Sonnen-Weg7!';
const WRONG_PASSWORD = 'Wrong-Passw0rd!';
// The cluster runs as `npm run cluster` does, in development: the provider's admin client is the
// development one (apps/provider/src/config.ts, DEV_ADMIN_CLIENT_SECRET), which the instances use too.
const ADMIN = { clientId: 'concierge-server', clientSecret: 'concierge-dev-admin-client-secret' };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The cluster's `localhost` URLs as 127.0.0.1, and nothing else. @param {string} url */
function onLoopback(url) {
  const parsed = new URL(url);
  if (parsed.hostname === 'localhost') parsed.hostname = '127.0.0.1';
  if (parsed.hostname !== '127.0.0.1') throw new Error(`Refusing to load anything but 127.0.0.1: ${url}`);
  return parsed.href;
}

/** @param {string} url @param {RequestInit} [init] */
async function json(url, init) {
  const response = await fetch(onLoopback(url), { ...init, signal: AbortSignal.timeout(20_000) });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    return { status: response.status, body: text };
  }
}

/** A client-credentials token of the provider's admin client. @param {string} provider */
async function adminToken(provider) {
  const { status, body } = await json(`${provider}/token-srv/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: ADMIN.clientId,
      client_secret: ADMIN.clientSecret,
    }),
  });
  if (status !== 200 || typeof body.access_token !== 'string') {
    throw new Error(`admin token: ${status} ${JSON.stringify(body).slice(0, 200)}`);
  }
  return /** @type {string} */ (body.access_token);
}

/** A sign-in request of the demo tenant, as its hosted page has it. @param {{ provider: string, propertyPortal: string }} urls */
async function freshRequestId(urls) {
  const { body } = await json(`${urls.provider}/authz-srv/authrequest/authz/generate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_id: CLIENT_ID,
      redirect_uri: `${urls.propertyPortal}/callback`,
      response_type: 'code',
      scope: 'openid',
    }),
  });
  const requestId = body?.data?.requestId;
  if (typeof requestId !== 'string') throw new Error(`authz/generate: ${JSON.stringify(body).slice(0, 200)}`);
  return requestId;
}

/**
 * An activated account made through the provider's admin API, as e2e/support/users.ts makes one:
 * registered, then its e-mail marked verified with cidaas's documented admin update (or, where the
 * provider does not serve that yet, the older profile update).
 * @param {{ provider: string, propertyPortal: string }} urls @param {string} token @param {string} email
 */
async function createAccount(urls, token, email) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const registered = await json(`${urls.provider}/users-srv/register`, {
    method: 'POST',
    headers: { ...headers, requestId: await freshRequestId(urls) },
    body: JSON.stringify({
      email,
      password: PASSWORD,
      password_echo: PASSWORD,
      provider: 'self',
      given_name: 'Bench',
    }),
  });
  const sub = registered.body?.data?.sub;
  if (typeof sub !== 'string') throw new Error(`register: ${JSON.stringify(registered.body).slice(0, 200)}`);
  // cidaas's documented admin update (docs/provider-protocol.md).
  const verified = await json(`${urls.provider}/user-srv/users/${sub}`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ userData: { provider: 'self', email_verified: true } }),
  });
  if (verified.status !== 200) throw new Error(`mark e-mail verified: ${verified.status}`);
  return sub;
}

/**
 * Three wrong passwords at the hosted page's login, in one sign-in request (as scripts/cluster.test.ts
 * does); the moment the third was answered.
 * @param {{ provider: string, propertyPortal: string }} urls @param {string} email
 */
async function failThrice(urls, email) {
  const requestId = await freshRequestId(urls);
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    const answer = await fetch(onLoopback(`${urls.provider}/login-srv/login`), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        username: email,
        password: WRONG_PASSWORD,
        username_type: 'email',
        requestId,
      }),
      redirect: 'manual',
      signal: AbortSignal.timeout(20_000),
    });
    await answer.arrayBuffer();
    if (answer.status !== 303) throw new Error(`wrong password ${attempt} answered ${answer.status}`);
  }
  return performance.now();
}

/**
 * Which users the provider has set DECLINED, read from its table (`provider.users`) every POLL_MS:
 * one query for every account waited for, so that watching four accounts costs the database what
 * watching one does, and the HTTP stack of the provider is not in the figures.
 * @param {string} databaseUrl
 */
function watchDeclined(databaseUrl) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  /** @type {Map<string, (at: number) => void>} */
  const waiting = new Map();
  let isWatching = true;
  const loop = (async () => {
    while (isWatching) {
      if (waiting.size > 0) {
        const { rows } = await pool.query(
          `select sub from provider.users where status = 'DECLINED' and sub = any($1)`,
          [[...waiting.keys()]],
        );
        const at = performance.now();
        for (const { sub } of rows) {
          waiting.get(sub)?.(at);
          waiting.delete(sub);
        }
      }
      await sleep(POLL_MS);
    }
  })();
  return {
    /** When DECLINED was first seen, or undefined when not within NEVER_MS. @param {string} sub */
    declined(sub) {
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(sub);
          resolve(undefined);
        }, NEVER_MS);
        waiting.set(sub, (at) => {
          clearTimeout(timer);
          resolve(at);
        });
      });
    },
    async close() {
      isWatching = false;
      await loop;
      await pool.end();
    },
  };
}

/**
 * @param {{ provider: string, propertyPortal: string }} urls the cluster's
 * @param {string} databaseUrl the cluster's PostgreSQL, where the provider has its schema
 */
export async function measureLockLatency(urls, databaseUrl) {
  const token = await adminToken(urls.provider);
  const run = Date.now().toString(36);
  const emails = Array.from(
    { length: WARM_UP_ACCOUNTS + ACCOUNTS },
    (_, index) => `bench-lock-${run}-${index}@example.ch`,
  );
  /** @type {string[]} */
  const subs = [];
  await inTurns(emails.length, async (index) => {
    subs[index] = await createAccount(urls, token, emails[index]);
  });

  const watch = watchDeclined(databaseUrl);
  /** @type {number[]} */
  const latencies = [];
  let neverLocked = 0;
  let notTried = 0;
  try {
    const lockOne = async (index) => {
      if (neverLocked >= GIVE_UP_AFTER) {
        notTried += 1;
        return;
      }
      const answered = await failThrice(urls, emails[index]);
      const declinedAt = await watch.declined(subs[index]);
      if (index < WARM_UP_ACCOUNTS) return;
      if (declinedAt === undefined) neverLocked += 1;
      else latencies.push(Math.max(0, declinedAt - answered));
    };
    await inTurns(WARM_UP_ACCOUNTS, lockOne);
    const started = performance.now();
    await inTurns(ACCOUNTS, (index) => lockOne(WARM_UP_ACCOUNTS + index));
    latencies.sort((a, b) => a - b);
    return {
      accounts: ACCOUNTS,
      concurrency: CONCURRENCY,
      warmUpAccounts: WARM_UP_ACCOUNTS,
      pollMs: POLL_MS,
      elapsedSeconds: (performance.now() - started) / 1000,
      locked: latencies.length,
      neverLocked,
      notTried,
      p50: percentile(latencies, 50) ?? Number.NaN,
      p99: percentile(latencies, 99) ?? Number.NaN,
      max: latencies.at(-1) ?? Number.NaN,
    };
  } finally {
    await watch.close();
  }
}

/**
 * Runs `task(0 … count - 1)`, CONCURRENCY at a time.
 * @param {number} count @param {(index: number) => Promise<void>} task
 */
async function inTurns(count, task) {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}
