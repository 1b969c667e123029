import { createHash, createHmac, randomBytes } from 'node:crypto';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';

/**
 * OpenID Connect Session Management 1.0, which oidc-provider dropped in v7 (STACK-NOTES). Three parts:
 * - the browser state: a cookie on the provider's origin that JavaScript may read, changing whenever
 *   the browser's sign-in changes (another account, a new login) and gone after a sign-out;
 * - `session_state` on every successful authorization response, derived from it;
 * - the OP iframe (routes/check-session.ts), which recomputes session_state from the cookie when a
 *   relying party asks and answers "changed" when it differs — how oidc-client-ts's monitorSession
 *   learns of a sign-out in another tab.
 */
export const BROWSER_STATE_COOKIE = 'op_browser_state';
export const CHECK_SESSION_PATH = '/session/check_session';

/**
 * The spec's example algorithm, which the iframe's script repeats in the browser:
 * base64url(sha256(client_id + " " + origin + " " + browser state + " " + salt)) + "." + salt.
 */
export function computeSessionState(
  clientId: string,
  origin: string,
  browserState: string,
  salt = randomBytes(16).toString('hex'),
): string {
  const digest = createHash('sha256')
    .update(`${clientId} ${origin} ${browserState} ${salt}`)
    .digest('base64url');
  return `${digest}.${salt}`;
}

interface SessionManagementOptions {
  /** Keys the browser state, so that it cannot be guessed or forged from the session's fields. */
  secret: string;
  /** https: the iframe runs inside another site's page, where only SameSite=None cookies are readable. */
  isSecure: boolean;
  /** The cookie lives as long as a session may. */
  maxAgeSeconds: number;
}

export function installSessionManagement(provider: Provider, options: SessionManagementOptions): void {
  const attributes = options.isSecure ? 'SameSite=None; Secure' : 'SameSite=Lax';
  const setCookie = (ctx: KoaContextWithOIDC, value: string, maxAge: number) =>
    // Written by hand: Koa's cookie helper refuses Secure behind a TLS-terminating proxy it does not trust.
    ctx.append('Set-Cookie', `${BROWSER_STATE_COOKIE}=${value}; Path=/; Max-Age=${maxAge}; ${attributes}`);

  // The event hands over the response parameters before they are sent: session_state joins them.
  provider.on('authorization.success', (ctx, response) => {
    const { session, params } = ctx.oidc;
    const clientId = params?.client_id;
    const redirectUri = params?.redirect_uri;
    if (!response || !session?.accountId || typeof clientId !== 'string' || typeof redirectUri !== 'string')
      return;
    const browserState = createHmac('sha256', options.secret)
      .update(`${session.uid} ${session.accountId} ${session.loginTs ?? ''}`)
      .digest('base64url');
    setCookie(ctx, browserState, options.maxAgeSeconds);
    response.session_state = computeSessionState(clientId, new URL(redirectUri).origin, browserState);
  });

  // Signed out (all of it, or from one client): the state goes, every watching iframe says "changed".
  // A relying party whose session is still there gets a new session_state on its next silent check.
  provider.on('end_session.success', (ctx) => setCookie(ctx, '', 0));
}
