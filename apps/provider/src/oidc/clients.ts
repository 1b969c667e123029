import type { ClientMetadata } from 'oidc-provider';
import type { ClientConfig } from '../config';

/** Our client metadata by client_id: hosted page, subdomain, required roles, brand colour, display fields. */
export type ClientDirectory = ReadonlyMap<string, ClientConfig>;

export function createClientDirectory(clients: readonly ClientConfig[]): ClientDirectory {
  return new Map(clients.map((client) => [client.client_id, client]));
}

/** What oidc-provider gets: the standard metadata only; ours stays in the directory. */
export function toOidcClientMetadata(client: ClientConfig): ClientMetadata {
  const {
    hosted_page_url: _hostedPageUrl,
    subdomain: _subdomain,
    required_roles: _requiredRoles,
    brand_color: _brandColor,
    ...standard
  } = client;
  return {
    ...standard,
    response_types: client.grant_types.includes('authorization_code') ? ['code'] : [],
  };
}

/** Origins a browser-based client may call the token, userinfo and revocation endpoints from. */
export function clientOrigins(client: ClientConfig): Set<string> {
  return new Set(
    [...client.redirect_uris, ...client.post_logout_redirect_uris].map((uri) => new URL(uri).origin),
  );
}
