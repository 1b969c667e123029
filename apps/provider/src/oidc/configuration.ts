import type {
  AccessToken,
  Client,
  ClientCredentials,
  Configuration,
  KoaContextWithOIDC,
  RefreshToken,
} from 'oidc-provider';
import { ADMIN_SCOPES, type ProviderConfig } from '../config';
import type { ProviderDb } from '../db/schema';
import { createFindAccount } from './account';
import { createAdapterFactory } from './adapter';
import { type ClientDirectory, clientOrigins, toOidcClientMetadata } from './clients';
import { loadFirstPartyGrant } from './grants';
import type { ProviderKeys } from './keys';
import { logoutSource, postLogoutSuccessSource, renderError } from './pages';
import { createInteractionPolicy, createInteractionUrl } from './policy';
import { CHECK_SESSION_PATH } from './session-management';

/** cidaas's endpoint paths (provider-protocol.md), so relying parties cannot tell the two apart. */
export const CIDAAS_ROUTES = {
  authorization: '/authz-srv/authz',
  token: '/token-srv/token',
  userinfo: '/users-srv/userinfo',
  jwks: '/.well-known/jwks.json',
  introspection: '/token-srv/introspect',
  revocation: '/token-srv/revoke',
  end_session: '/session/end_session',
} as const;

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
export const SESSION_TTL_SECONDS = 14 * DAY;
/** How long a sign-in request (an interaction, its id the request id) can be finished. */
export const INTERACTION_TTL_SECONDS = HOUR;

export interface OidcDependencies {
  config: ProviderConfig;
  db: ProviderDb;
  keys: ProviderKeys;
  clients: ClientDirectory;
}

export function createOidcConfiguration({ config, db, keys, clients }: OidcDependencies): Configuration {
  return {
    adapter: createAdapterFactory(db),
    clients: config.clients.map(toOidcClientMetadata),
    jwks: keys.jwks,
    cookies: {
      keys: keys.cookieKeys,
      long: { httpOnly: true, sameSite: 'lax' },
      short: { httpOnly: true, sameSite: 'lax' },
    },
    // Default scope of the product: "email openid profile mobile" (spec §1).
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'locale'],
      mobile: ['mobile_number'],
    },
    scopes: ['openid', 'offline_access', ...ADMIN_SCOPES],
    routes: CIDAAS_ROUTES,
    // The product only uses the code flow (spec §1); no implicit or hybrid tokens in URLs.
    responseTypes: ['code'],
    pkce: { required: () => true },
    features: {
      // The dev interactions accept any password; the portal's hosted pages log users in instead.
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      // cidaas has no PAR endpoint; relying parties must not come to depend on one.
      pushedAuthorizationRequests: { enabled: false },
      introspection: { enabled: true, allowedPolicy: isOwnTokenOrConfidential },
      revocation: { enabled: true, allowedPolicy: isOwnToken },
      rpInitiatedLogout: { enabled: true, logoutSource, postLogoutSuccessSource },
      userinfo: { enabled: true },
    },
    interactions: {
      policy: createInteractionPolicy(clients),
      url: createInteractionUrl(config.portalUrl, clients),
    },
    loadExistingGrant: loadFirstPartyGrant,
    // Refresh tokens for every client allowed the grant, without asking for offline_access (the
    // product's default scope does not contain it; oidc-client-ts renews silently with them).
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    findAccount: createFindAccount(db, config.signIn),
    clientBasedCORS: (_ctx, origin, client) => {
      const settings = clients.get(client.clientId);
      return settings !== undefined && clientOrigins(settings).has(origin);
    },
    renderError,
    // Session Management 1.0 is added back by hand (oidc/session-management.ts, routes/check-session.ts).
    discovery: {
      claim_types_supported: ['normal'],
      check_session_iframe: `${config.issuer}${CHECK_SESSION_PATH}`,
    },
    ttl: {
      AccessToken: HOUR,
      AuthorizationCode: MINUTE,
      ClientCredentials: 10 * MINUTE,
      IdToken: HOUR,
      Interaction: INTERACTION_TTL_SECONDS,
      Grant: 14 * DAY,
      Session: SESSION_TTL_SECONDS,
      RefreshToken: refreshTokenTtl,
    },
    ...(isLoopback(config.issuer) ? { fetch: fetchWithoutSsrfGuard } : {}),
  };
}

/** A rotated refresh token of a public client keeps the remaining lifetime: 14 days from sign-in, not sliding. */
function refreshTokenTtl(ctx: KoaContextWithOIDC, _token: RefreshToken, client: Client): number {
  const rotated = ctx?.oidc?.entities.RotatedRefreshToken;
  if (rotated && client.clientAuthMethod === 'none') return rotated.remainingTTL;
  return 14 * DAY;
}

function isOwnToken(
  _ctx: KoaContextWithOIDC,
  client: Client,
  token: AccessToken | ClientCredentials | RefreshToken,
) {
  return token.clientId === client.clientId;
}

function isOwnTokenOrConfidential(
  ctx: KoaContextWithOIDC,
  client: Client,
  token: AccessToken | ClientCredentials | RefreshToken,
): boolean {
  return client.clientAuthMethod !== 'none' || isOwnToken(ctx, client, token);
}

function isLoopback(url: string): boolean {
  const { hostname } = new URL(url);
  return hostname === 'localhost' || hostname === '[::1]' || hostname.startsWith('127.');
}

/**
 * oidc-provider sends its outgoing requests (client jwks_uri, back-channel logout) through an SSRF
 * guard that refuses loopback addresses, which is every address in a local run (STACK-NOTES). Only
 * used when the issuer itself is on loopback.
 */
function fetchWithoutSsrfGuard(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const { dispatcher: _ssrfGuard, ...rest } = (init ?? {}) as RequestInit & { dispatcher?: unknown };
  return globalThis.fetch(input, rest);
}
