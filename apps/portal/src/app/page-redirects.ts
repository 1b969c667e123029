import { matchPageRoute, notFoundRoute } from './routes';

/**
 * Where a URL must go before anything renders; the same on the server (a 302) and in the browser.
 * - spec §2: `registrationcode` or `code` on any route (value `empty` excluded) → /register with the code.
 * - spec §2: /login?error=email_not_verified → the resend-activation page with the entered e-mail.
 * - The provider's names of the account (`sub`, its masked form `q`, a `track_id`), which cidaas
 *   appends to a known user's failed sign-in (recorded) and to its other hosted pages: read by no
 *   page, so they leave the address bar (and the history) before anything renders. Not on
 *   /verification-complete, whose link the spec lets carry `sub`.
 */
export function pageRedirect(pathname: string, search: string): string | null {
  const route = matchPageRoute(pathname);
  const params = new URLSearchParams(search);
  // Every target is one of the portal's own routes, never the address's own path, which a browser
  // may read as another site (`//evil.example/…`). An unknown path's page reads no account names,
  // so they stay there.
  const isNamingAccount =
    route !== notFoundRoute &&
    route.path !== '/verification-complete' &&
    ACCOUNT_NAMES.some((name) => params.has(name));
  if (isNamingAccount) for (const name of ACCOUNT_NAMES) params.delete(name);
  const code = params.get('registrationcode') ?? params.get('code');
  if (code && code !== 'empty' && route.path !== '/register') {
    params.delete('code');
    params.set('registrationcode', code);
    return `/register?${params}`;
  }
  if (route.path === '/login' && params.get('error') === 'email_not_verified') {
    const email = params.get('username');
    for (const name of ['error', 'error_description', 'username']) params.delete(name);
    if (email) params.set('email', email);
    params.set('reason', 'email_not_verified');
    return `/resend-account-activation-email?${params}`;
  }
  if (isNamingAccount) return params.size > 0 ? `${route.path}?${params}` : route.path;
  return null;
}

const ACCOUNT_NAMES = ['sub', 'q', 'track_id'];
