/**
 * No inline script or style. oidc-client-ts fetches discovery, token, userinfo and keys from the
 * provider (connect-src) and frames it for the session check and for silent renew, whose frame
 * comes back to this app's /silent-renew (frame-src, frame-ancestors 'self').
 */
export function contentSecurityPolicy(providerUrl: string): string {
  const provider = new URL(providerUrl).origin;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self' ${provider}`,
    `frame-src 'self' ${provider}`,
    `form-action 'self' ${provider}`,
    "frame-ancestors 'self'",
    "base-uri 'none'",
    "object-src 'none'",
  ].join('; ');
}

export function securityHeaders(providerUrl: string): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(providerUrl),
    // The callback URL carries the authorization code: it must never travel in a Referer.
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
  };
}
