import type { ClientConfig } from './config';

/** What cidaas appends to every hosted page URL it sends a browser to (provider-protocol.md). */
const HOSTED_PAGE_PARAMS = { groupname: 'default', lang: '', view_type: 'login' } as const;

/** The client's configured hosted login page, or the portal's /login for a client without one. */
export function hostedPageUrlOf(client: ClientConfig | undefined, portalUrl: string): string {
  return client?.hosted_page_url ?? `${portalUrl}/login`;
}

/**
 * The hosted page URL with cidaas's parameters and then `params` added to the query it already has
 * (an operator's `?subdomain=demo` stays). Undefined values are left out; empty ones are kept, as
 * cidaas sends `lang=`.
 */
export function hostedPageLocation(pageUrl: string, params: Record<string, string | undefined>): string {
  const url = new URL(pageUrl);
  for (const [key, value] of Object.entries({ ...HOSTED_PAGE_PARAMS, ...params })) {
    if (value !== undefined) url.searchParams.set(key, value);
  }
  return url.href;
}

/**
 * Where a login goes whose request is unknown or expired: no client is known, so the portal's page.
 * The dead request id goes along: the portal knows which tenant it served it to and shows that
 * tenant's page, with a fresh request; the e-mail goes along to fill the form again.
 */
export function sessionExpiredLocation(portalUrl: string, requestId: string, username: string): string {
  const query = new URLSearchParams({ error: 'session_expired', requestId });
  if (username) query.set('username', username);
  return `${portalUrl}/login?${query}`;
}
