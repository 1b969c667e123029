/**
 * Where the browser may go after a new password was set: `redirect_uri` from the server's answer,
 * but only onto an origin the portal trusts (its own, or the tenant's portal host from the registry).
 * Everything else — another host, `javascript:`, `data:`, a protocol-relative `//host`, a URL with
 * credentials — is refused (null), so that the answer can never send a visitor somewhere foreign.
 * What was checked is what is returned: the parsed URL, not the original string.
 */
export function trustedRedirectTarget(
  redirectUri: string,
  trustedOrigins: readonly string[],
  /** The page's own URL, to resolve a relative redirect against. */
  base: string,
): URL | null {
  let target: URL;
  try {
    target = new URL(redirectUri, base);
  } catch {
    return null;
  }
  if (target.protocol !== 'https:' && target.protocol !== 'http:') return null;
  if (target.username || target.password) return null;
  const origins = new Set(trustedOrigins.map(originOf).filter((origin) => origin !== null));
  return origins.has(target.origin) ? target : null;
}

function originOf(url: string): string | null {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/** spec §7: the redirect gets the subdomain when it is known and not there already. */
export function withSubdomain(target: URL, subdomain: string | undefined): URL {
  const result = new URL(target);
  if (subdomain && !result.searchParams.has('subdomain')) result.searchParams.set('subdomain', subdomain);
  return result;
}
