import { createHash, randomBytes } from 'node:crypto';
import type { SignInClient } from '../provider-client/sign-in-requests';

/**
 * A relying party's sign-in, as the property portal does it (code flow with PKCE, a public client):
 * through the provider's authorization endpoint, its hosted-page login and its token endpoint. For the
 * conformance suite's question whether a reset ends the sign-ins made before it. Redirects are
 * followed by hand, with the provider's cookies kept (cidaas needs none: the request id carries the
 * flow; oidc-provider ties it to its resume cookie).
 */
export async function signInForTokens(
  baseUrl: string,
  client: SignInClient,
  credentials: { email: string; password: string },
): Promise<{ refreshToken: string }> {
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL('/authz-srv/authz', baseUrl);
  authorize.search = new URLSearchParams({
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    response_type: 'code',
    scope: 'openid email profile',
    state: randomBytes(8).toString('hex'),
    nonce: randomBytes(8).toString('hex'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  const callback = await signInAtProvider(baseUrl, authorize.href, credentials);
  const code = callback.searchParams.get('code');
  if (!code || !callback.href.startsWith(client.redirectUri)) {
    // Back on the hosted page: its error parameter says why (never the password).
    throw new Error(
      `the sign-in ended at ${callback.origin}${callback.pathname} with error=${callback.searchParams.get('error')}`,
    );
  }

  const tokens = await tokenRequest(baseUrl, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: client.redirectUri,
    client_id: client.clientId,
    code_verifier: verifier,
  });
  const refreshToken = tokens.body.refresh_token;
  if (tokens.status !== 200 || typeof refreshToken !== 'string') {
    throw new Error(`the token endpoint answered ${tokens.status} without a refresh token`);
  }
  return { refreshToken };
}

/**
 * A person signing in at the provider for an authorization request (`authorizeUrl`): on to its hosted
 * page, which names the request, the login posted with the request id, and the redirects followed
 * with the provider's cookies until they leave it. Returns where they lead: the client's redirect URI
 * with its code, or the hosted page with an error.
 */
export async function signInAtProvider(
  baseUrl: string,
  authorizeUrl: string,
  credentials: { email: string; password: string },
): Promise<URL> {
  const cookies = new CookieJar();
  const hostedPage = await cookies.followWithin(baseUrl, authorizeUrl);
  const requestId = hostedPage.searchParams.get('requestId');
  if (!requestId)
    throw new Error(`the authorization endpoint led to ${hostedPage.origin} without a requestId`);
  const login = await cookies.fetch(new URL('/login-srv/login', baseUrl).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      username: credentials.email,
      password: credentials.password,
      requestId,
      username_type: 'email',
    }).toString(),
  });
  const next = login.headers.get('location');
  if (!next) throw new Error(`the login answered ${login.status} without a redirect`);
  return cookies.followWithin(baseUrl, new URL(next, baseUrl).href);
}

/** A refresh at the token endpoint: its status and, when refused, the OAuth error code. */
export async function refreshTokens(
  baseUrl: string,
  client: SignInClient,
  refreshToken: string,
): Promise<{ status: number; error?: string }> {
  const { status, body } = await tokenRequest(baseUrl, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: client.clientId,
  });
  return typeof body.error === 'string' ? { status, error: body.error } : { status };
}

async function tokenRequest(
  baseUrl: string,
  form: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(new URL('/token-srv/token', baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(form).toString(),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  try {
    const body: unknown = JSON.parse(text);
    return {
      status: response.status,
      body: typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {},
    };
  } catch {
    return { status: response.status, body: {} };
  }
}

/** The provider's cookies by name and path; one origin only. */
class CookieJar {
  readonly #cookies = new Map<string, { name: string; value: string; path: string }>();

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const { pathname } = new URL(url);
    const cookie = [...this.#cookies.values()]
      .filter(
        (one) =>
          pathname === one.path || pathname.startsWith(one.path.endsWith('/') ? one.path : `${one.path}/`),
      )
      .map((one) => `${one.name}=${one.value}`)
      .join('; ');
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(url, {
      ...init,
      headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(15_000),
    });
    for (const line of response.headers.getSetCookie()) this.#store(line);
    return response;
  }

  /** Follows redirects while they stay on `origin`'s host; returns the first location that leaves it. */
  async followWithin(origin: string, url: string, maxHops = 10): Promise<URL> {
    let current = new URL(url);
    for (let hop = 0; hop < maxHops; hop += 1) {
      if (current.origin !== new URL(origin).origin) return current;
      const response = await this.fetch(current.href);
      await response.arrayBuffer();
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) {
        throw new Error(`stopped at ${current.pathname} with ${response.status}`);
      }
      current = new URL(location, current);
    }
    throw new Error(`too many redirects from ${new URL(url).pathname}`);
  }

  #store(line: string) {
    const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
    const separator = pair.indexOf('=');
    const name = pair.slice(0, separator);
    const value = pair.slice(separator + 1);
    let path = '/';
    let isExpired = value === '';
    for (const attribute of attributes) {
      const [key = '', attributeValue = ''] = attribute.split('=');
      if (key.toLowerCase() === 'path') path = attributeValue || '/';
      if (key.toLowerCase() === 'expires' && Date.parse(attributeValue) <= Date.now()) isExpired = true;
      if (key.toLowerCase() === 'max-age' && Number(attributeValue) <= 0) isExpired = true;
    }
    if (isExpired) this.#cookies.delete(`${name};${path}`);
    else this.#cookies.set(`${name};${path}`, { name, value, path });
  }
}
