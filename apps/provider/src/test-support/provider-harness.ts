import { createHash, randomBytes } from 'node:crypto';
import { openTestDatabase } from '@concierge/database';
import { freePort } from '@concierge/test-support';
import type { FastifyInstance } from 'fastify';
import { createProviderApp, type ProviderAppOptions } from '../app';
import { type ClientConfig, clientSchema, loadConfig, type ProviderConfig } from '../config';
import { migrations } from '../db/migrations';
import type { ProviderDatabase, ProviderTables } from '../db/schema';
import { seedDemoUser } from '../users/users';
import type { TestBrowser } from './test-browser';

export const PORTAL_URL = 'http://portal.test';
export const RP_URL = 'http://rp.test';
export const RP_CLIENT_ID = 'property-portal-demo';
export const RP_REDIRECT_URI = `${RP_URL}/callback`;

export interface ProviderHarness {
  baseUrl: string;
  config: ProviderConfig;
  database: ProviderDatabase;
  app: FastifyInstance;
  close(): Promise<void>;
}

/**
 * Nothing listens on port 1: webhooks and e-mails of tests that do not look at them fail at once
 * (and are retried quietly) instead of waiting for a DNS answer about portal.test.
 */
const NOWHERE = '127.0.0.1:1';

export interface StartOptions {
  /** More environment variables, e.g. PROVIDER_WEBHOOK_URL or SMTP_URL of a test receiver. */
  env?: Record<string, string>;
  retrySchedule?: ProviderAppOptions['retrySchedule'];
  /** The app's logger (observability/logging.ts providerLoggerOptions with a stream); off unless given. */
  logger?: ProviderAppOptions['logger'];
  /** Called with the app before it listens, e.g. to add a test's hook (the fuzz test's recordQueryReads). */
  beforeListen?: (app: FastifyInstance) => void;
}

/**
 * The real app on a free loopback port, with its own database (a fresh schema on the test run's
 * PostgreSQL). The port is chosen first because the issuer URL must contain it.
 */
export async function startProvider(
  extraClients: Record<string, unknown>[] = [],
  options: StartOptions = {},
): Promise<ProviderHarness> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    CONCIERGE_DEV: 'true',
    PROVIDER_URL: baseUrl,
    PORTAL_URL,
    PROPERTY_PORTAL_URL: RP_URL,
    PROPERTY_PORTAL_CLIENT_ID: RP_CLIENT_ID,
    PROVIDER_WEBHOOK_URL: `http://${NOWHERE}/api/cidaas-webhook/events`,
    SMTP_URL: `smtp://${NOWHERE}`,
    ...options.env,
  });
  config.clients.push(...extraClients.map((client): ClientConfig => clientSchema.parse(client)));
  const database = await openTestDatabase<ProviderTables>('provider', migrations);
  await seedDemoUser(database.db);
  const app = await createProviderApp(config, database, {
    retrySchedule: options.retrySchedule,
    logger: options.logger,
  });
  options.beforeListen?.(app);
  await app.listen({ port, host: '127.0.0.1' });
  return {
    baseUrl,
    config,
    database,
    app,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

export interface Pkce {
  verifier: string;
  challenge: string;
}

export function createPkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizationUrl(
  baseUrl: string,
  pkce: Pkce,
  overrides: Record<string, string> = {},
): string {
  const url = new URL(`${baseUrl}/authz-srv/authz`);
  const params = {
    client_id: RP_CLIENT_ID,
    response_type: 'code',
    scope: 'openid email profile mobile',
    redirect_uri: RP_REDIRECT_URI,
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    state: 'state-123',
    nonce: 'nonce-123',
    ...overrides,
  };
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.href;
}

/** Starts an authorization request in the browser and returns the requestId the portal would get. */
export async function startAuthorization(
  harness: ProviderHarness,
  browser: TestBrowser,
  pkce: Pkce,
  overrides: Record<string, string> = {},
): Promise<{ requestId: string; loginUrl: URL }> {
  const response = await browser.fetch(authorizationUrl(harness.baseUrl, pkce, overrides));
  const location = response.headers.get('location');
  if (response.status !== 303 || !location) throw new Error(`authorization gave ${response.status}`);
  const loginUrl = new URL(location);
  const requestId = loginUrl.searchParams.get('requestId');
  if (!requestId) throw new Error(`no requestId in ${location}`);
  return { requestId, loginUrl };
}

/** The portal's login form POST, as a top-level form submission (no redirects followed). */
export function postLogin(
  harness: ProviderHarness,
  browser: TestBrowser,
  fields: Record<string, string>,
): Promise<Response> {
  return browser.fetch(`${harness.baseUrl}/login-srv/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: PORTAL_URL },
    body: new URLSearchParams({ username_type: 'email', ...fields }).toString(),
  });
}

/** Runs authorize → login → resume and returns the code delivered to the relying party's redirect_uri. */
export async function signIn(
  harness: ProviderHarness,
  browser: TestBrowser,
  credentials: { email: string; password: string },
  pkce: Pkce = createPkce(),
): Promise<{ code: string; pkce: Pkce; callback: URL }> {
  const { requestId } = await startAuthorization(harness, browser, pkce);
  const login = await postLogin(harness, browser, {
    username: credentials.email,
    password: credentials.password,
    requestId,
  });
  const resume = login.headers.get('location');
  if (login.status !== 303 || !resume?.startsWith(harness.baseUrl)) {
    throw new Error(`login did not lead back to the provider: ${login.status} ${resume}`);
  }
  const callback = await browser.followUntil(resume, (url) => url.startsWith(RP_URL));
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code on ${callback.href}`);
  return { code, pkce, callback };
}

export async function exchangeCode(harness: ProviderHarness, code: string, pkce: Pkce): Promise<TokenSet> {
  const response = await fetch(`${harness.baseUrl}/token-srv/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: RP_REDIRECT_URI,
      client_id: RP_CLIENT_ID,
      code_verifier: pkce.verifier,
    }).toString(),
  });
  if (response.status !== 200)
    throw new Error(`token exchange gave ${response.status}: ${await response.text()}`);
  return (await response.json()) as TokenSet;
}

export interface TokenSet {
  access_token: string;
  id_token: string;
  refresh_token?: string;
  token_type: string;
  expires_in: number;
  scope: string;
}

/** A client-credentials token of the admin client, sent the way the server sends it. */
export async function adminToken(harness: ProviderHarness): Promise<string> {
  const response = await fetch(`${harness.baseUrl}/token-srv/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: harness.config.adminClient.clientId,
      client_secret: harness.config.adminClient.clientSecret,
    }).toString(),
  });
  if (response.status !== 200)
    throw new Error(`client_credentials gave ${response.status}: ${await response.text()}`);
  return ((await response.json()) as TokenSet).access_token;
}
