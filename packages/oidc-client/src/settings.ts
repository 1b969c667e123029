import { type UserManagerSettings, WebStorageStateStore } from 'oidc-client-ts';
import { OIDC_CLIENT_DEFAULTS } from './defaults';

export interface OidcClientOptions {
  /** Provider base URL; discovery is read from `${authority}/.well-known/openid-configuration`. */
  authority: string;
  clientId: string;
  redirectUri: string;
  postLogoutRedirectUri: string;
  /** Defaults to redirectUri (oidc-client-ts' own fallback). */
  silentRedirectUri?: string;
  /** Defaults to redirectUri (oidc-client-ts' own fallback). */
  popupRedirectUri?: string;
  scope?: string;
}

/** The UserManager settings with the product's defaults; PKCE (S256) is on by oidc-client-ts' default. */
export function createUserManagerSettings(options: OidcClientOptions): UserManagerSettings {
  const defaults = OIDC_CLIENT_DEFAULTS;
  return {
    authority: options.authority,
    client_id: options.clientId,
    redirect_uri: options.redirectUri,
    post_logout_redirect_uri: options.postLogoutRedirectUri,
    ...(options.silentRedirectUri && { silent_redirect_uri: options.silentRedirectUri }),
    ...(options.popupRedirectUri && { popup_redirect_uri: options.popupRedirectUri }),
    response_type: defaults.responseType,
    scope: options.scope ?? defaults.scope,
    loadUserInfo: defaults.loadUserInfo,
    staleStateAgeInSeconds: defaults.staleStateAgeInSeconds,
    silentRequestTimeoutInSeconds: defaults.silentRequestTimeoutInSeconds,
    accessTokenExpiringNotificationTimeInSeconds: defaults.accessTokenExpiringNotificationTimeInSeconds,
    automaticSilentRenew: defaults.automaticSilentRenew,
    monitorSession: defaults.monitorSession,
    checkSessionIntervalInSeconds: defaults.checkSessionIntervalInSeconds,
    popupWindowFeatures: { ...defaults.popupWindowFeatures },
    userStore: new WebStorageStateStore({ prefix: defaults.userStorePrefix, store: window.sessionStorage }),
    stateStore: new WebStorageStateStore({ prefix: defaults.stateStorePrefix, store: window.sessionStorage }),
  };
}
