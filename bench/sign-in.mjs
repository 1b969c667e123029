// The sign-in round trip of a relying party against the embedded provider, without a browser:
// authorize (PKCE S256) → the hosted login form's POST → the code at the redirect URI → the token
// exchange. Each round trip starts with an empty cookie jar, so each one checks the password (argon2)
// as a first sign-in does. Only ever against 127.0.0.1: the stack's localhost URLs are rewritten.
import { createHash, randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';

export const ROUND_TRIPS = 200;
export const WARMUP_ROUND_TRIPS = 20;
export const THROUGHPUT_SECONDS = 10;
export const THROUGHPUT_CONCURRENCY = 8;
const CLIENT_ID = 'property-portal-demo';
const MAX_HOPS = 10;

/** @param {string} url */
function onLoopback(url) {
  const parsed = new URL(url);
  if (parsed.hostname === 'localhost') parsed.hostname = '127.0.0.1';
  if (parsed.hostname !== '127.0.0.1') throw new Error(`Refusing to load anything but 127.0.0.1: ${url}`);
  return parsed.href;
}

/** Whether `url` is on `base`'s origin and under its path, localhost and 127.0.0.1 being one. */
function isUnder(url, base) {
  const [target, prefix] = [new URL(onLoopback(url)), new URL(onLoopback(base))];
  return target.origin === prefix.origin && target.pathname.startsWith(prefix.pathname);
}

/** One origin's cookies, by path; enough of a browser for the provider's interaction cookies. */
class CookieJar {
  /** @type {Map<string, { name: string, value: string, path: string }>} */
  #cookies = new Map();

  /** @param {string} url @param {RequestInit} [init] */
  async fetch(url, init = {}) {
    const headers = new Headers(init.headers);
    const { pathname } = new URL(url);
    const cookie = [...this.#cookies.values()]
      .filter((c) => pathname === c.path || pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(onLoopback(url), { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) this.#store(line);
    return response;
  }

  /** @param {string} line */
  #store(line) {
    const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
    const name = pair.slice(0, pair.indexOf('='));
    const value = pair.slice(pair.indexOf('=') + 1);
    let path = '/';
    let expired = value === '';
    for (const attribute of attributes) {
      const [key = '', attributeValue = ''] = attribute.split('=');
      if (key.toLowerCase() === 'path') path = attributeValue || '/';
      if (key.toLowerCase() === 'max-age' && Number(attributeValue) <= 0) expired = true;
      if (key.toLowerCase() === 'expires' && Date.parse(attributeValue) <= Date.now()) expired = true;
    }
    if (expired) this.#cookies.delete(`${name};${path}`);
    else this.#cookies.set(`${name};${path}`, { name, value, path });
  }
}

/**
 * The relying party's authorization request, as a browser arrives at the provider: answered with
 * the hosted page (the portal's /login) and a request id.
 * @param {CookieJar} jar
 * @param {{ provider: string, propertyPortal: string }} urls
 * @param {string} verifier PKCE code verifier
 */
async function authorize(jar, urls, verifier) {
  const authorizeUrl = new URL(`${urls.provider}/authz-srv/authz`);
  authorizeUrl.search = new URLSearchParams({
    client_id: CLIENT_ID,
    response_type: 'code',
    scope: 'openid email profile',
    redirect_uri: `${urls.propertyPortal}/callback`,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: randomBytes(8).toString('hex'),
    nonce: randomBytes(8).toString('hex'),
  }).toString();
  const toHostedPage = await jar.fetch(authorizeUrl.href);
  await toHostedPage.arrayBuffer();
  const hostedPage = new URL(toHostedPage.headers.get('location') ?? '', urls.provider);
  const requestId = hostedPage.searchParams.get('requestId');
  if (!requestId) throw new Error(`authorize answered ${toHostedPage.status} without a request id`);
  return { requestId, hostedPage: hostedPage.href };
}

/**
 * The /login a tenant arrives at from the demo property portal, with a live request id.
 * @param {{ provider: string, propertyPortal: string }} urls
 */
export async function arrivalAtLogin(urls) {
  const { hostedPage } = await authorize(new CookieJar(), urls, randomBytes(32).toString('base64url'));
  return hostedPage;
}

/**
 * One full sign-in of a relying party; throws unless it ends with tokens.
 * @param {{ provider: string, portal: string, propertyPortal: string }} urls the stack's
 * @param {{ email: string, password: string }} user
 */
export async function signInRoundTrip(urls, user) {
  const jar = new CookieJar();
  const redirectUri = `${urls.propertyPortal}/callback`;
  const verifier = randomBytes(32).toString('base64url');
  const { requestId } = await authorize(jar, urls, verifier);

  const login = await jar.fetch(`${urls.provider}/login-srv/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: urls.portal },
    body: new URLSearchParams({
      username_type: 'email',
      username: user.email,
      password: user.password,
      requestId,
    }),
  });
  await login.arrayBuffer();
  // The provider builds its URLs from the Host header, so they name 127.0.0.1 here.
  let location = new URL(login.headers.get('location') ?? '', urls.provider).href;
  if (login.status !== 303 || !isUnder(location, urls.provider)) {
    throw new Error(`the login POST answered ${login.status} ${location}`);
  }
  for (let hop = 0; hop < MAX_HOPS && !isUnder(location, redirectUri); hop += 1) {
    const response = await jar.fetch(location);
    await response.arrayBuffer();
    const next = response.headers.get('location');
    if (!next) throw new Error(`stopped at ${location} with ${response.status}`);
    location = new URL(next, location).href;
  }
  const code = isUnder(location, redirectUri) ? new URL(location).searchParams.get('code') : null;
  if (!code) throw new Error(`no code: ended at ${location}`);

  const token = await fetch(onLoopback(`${urls.provider}/token-srv/token`), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: CLIENT_ID,
      code_verifier: verifier,
    }),
  });
  const tokens = await token.json();
  if (token.status !== 200 || typeof tokens.id_token !== 'string') {
    throw new Error(`the token exchange answered ${token.status}: ${JSON.stringify(tokens).slice(0, 200)}`);
  }
}

/** The nearest-rank percentile. @param {number[]} sorted @param {number} p */
export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Sequential round trips after a warm-up: how long one sign-in takes with nothing else going on.
 * @param {Parameters<typeof signInRoundTrip>[0]} urls @param {Parameters<typeof signInRoundTrip>[1]} user
 */
export async function measureRoundTrips(urls, user) {
  for (let i = 0; i < WARMUP_ROUND_TRIPS; i += 1) await signInRoundTrip(urls, user);
  const durations = [];
  for (let i = 0; i < ROUND_TRIPS; i += 1) {
    const started = performance.now();
    await signInRoundTrip(urls, user);
    durations.push(performance.now() - started);
  }
  durations.sort((a, b) => a - b);
  return {
    roundTrips: ROUND_TRIPS,
    p50: percentile(durations, 50),
    p99: percentile(durations, 99),
    max: durations[durations.length - 1],
    mean: durations.reduce((sum, ms) => sum + ms, 0) / durations.length,
  };
}

/**
 * A bounded concurrent run: THROUGHPUT_CONCURRENCY round trips at a time for THROUGHPUT_SECONDS.
 * Per core: divided by the machine's cores (the provider's argon2 runs on libuv's thread pool and
 * can use all of them; the bench itself and the server's webhook handling share them).
 * @param {Parameters<typeof signInRoundTrip>[0]} urls @param {Parameters<typeof signInRoundTrip>[1]} user
 */
export async function measureSignInThroughput(urls, user) {
  const started = performance.now();
  const deadline = started + THROUGHPUT_SECONDS * 1000;
  let completed = 0;
  let failed = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      try {
        await signInRoundTrip(urls, user);
        completed += 1;
      } catch {
        failed += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: THROUGHPUT_CONCURRENCY }, worker));
  const elapsedSeconds = (performance.now() - started) / 1000;
  const perSecond = completed / elapsedSeconds;
  const cores = availableParallelism();
  return {
    concurrency: THROUGHPUT_CONCURRENCY,
    elapsedSeconds,
    completed,
    failed,
    perSecond,
    cores,
    perSecondPerCore: perSecond / cores,
  };
}
