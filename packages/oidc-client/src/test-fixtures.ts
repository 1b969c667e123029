import { User } from 'oidc-client-ts';
import type { OidcClientOptions } from './settings';

export const AUTHORITY = 'http://localhost:8081';
export const CLIENT_ID = 'property-portal-demo';

export const OPTIONS: OidcClientOptions = {
  authority: AUTHORITY,
  clientId: CLIENT_ID,
  redirectUri: 'http://localhost:8082/callback',
  postLogoutRedirectUri: 'http://localhost:8082/',
  silentRedirectUri: 'http://localhost:8082/silent-renew',
};

export const DISCOVERY = {
  issuer: AUTHORITY,
  authorization_endpoint: `${AUTHORITY}/authz-srv/authz`,
  token_endpoint: `${AUTHORITY}/token-srv/token`,
  userinfo_endpoint: `${AUTHORITY}/users-srv/userinfo`,
  jwks_uri: `${AUTHORITY}/.well-known/jwks.json`,
  end_session_endpoint: `${AUTHORITY}/session/end_session`,
  check_session_iframe: `${AUTHORITY}/session/check_session`,
};

/** An unsigned ID token: oidc-client-ts 3 reads its claims without checking the signature. */
function idToken(claims: Record<string, unknown>): string {
  const part = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `${part({ alg: 'none' })}.${part(claims)}.`;
}

/** Answers discovery, the token endpoint (any code) and userinfo like the provider would. */
export function providerFetch(input: RequestInfo | URL, _init?: RequestInit): Promise<Response> {
  const url = String(input instanceof Request ? input.url : input);
  if (url === `${AUTHORITY}/.well-known/openid-configuration`)
    return Promise.resolve(Response.json(DISCOVERY));
  if (url === DISCOVERY.token_endpoint) {
    return Promise.resolve(
      Response.json({
        access_token: 'access-token',
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'email openid profile mobile',
        id_token: idToken({ sub: 'user-1', iss: AUTHORITY, aud: CLIENT_ID, exp: 4_000_000_000, iat: 1 }),
      }),
    );
  }
  if (url === DISCOVERY.userinfo_endpoint) {
    return Promise.resolve(Response.json({ sub: 'user-1', email: 'anna@example.ch' }));
  }
  return Promise.resolve(new Response('not found', { status: 404 }));
}

export function signedInUser(overrides: Partial<ConstructorParameters<typeof User>[0]> = {}): User {
  return new User({
    id_token: 'id-token',
    access_token: 'access-token',
    refresh_token: 'refresh-token',
    token_type: 'Bearer',
    scope: 'email openid profile mobile',
    profile: { sub: 'user-1', iss: AUTHORITY, aud: CLIENT_ID, exp: 4_000_000_000, iat: 1_700_000_000 },
    expires_at: 4_000_000_000,
    ...overrides,
  });
}
