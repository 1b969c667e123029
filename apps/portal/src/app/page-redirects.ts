/**
 * Where a URL must go before anything renders; the same on the server (a 302) and in the browser.
 * - spec §2: `registrationcode` or `code` on any route (value `empty` excluded) → /register with the code.
 * - spec §2: /login?error=email_not_verified → the resend-activation page with the entered e-mail.
 */
export function pageRedirect(pathname: string, search: string): string | null {
  const params = new URLSearchParams(search);
  const code = params.get('registrationcode') ?? params.get('code');
  if (code && code !== 'empty' && pathname !== '/register') {
    params.delete('code');
    params.set('registrationcode', code);
    return `/register?${params}`;
  }
  if (pathname === '/login' && params.get('error') === 'email_not_verified') {
    const email = params.get('username');
    for (const name of ['error', 'error_description', 'username']) params.delete(name);
    if (email) params.set('email', email);
    params.set('reason', 'email_not_verified');
    return `/resend-account-activation-email?${params}`;
  }
  return null;
}
