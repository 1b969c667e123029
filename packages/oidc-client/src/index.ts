export type { User, UserManagerEvents, UserProfile } from 'oidc-client-ts';
export { createOidcClient, type OidcClient } from './client';
export { OIDC_CLIENT_DEFAULTS } from './defaults';
export { OIDC_CLIENT_ERROR_MESSAGES, OidcClientError, type OidcClientErrorMessage } from './errors';
export { createUserManagerSettings, type OidcClientOptions } from './settings';
