/**
 * The product's client defaults (spec §1 and §9). Values that oidc-client-ts already uses on its own
 * are set anyway, so that a library update cannot change them unnoticed.
 */
export const OIDC_CLIENT_DEFAULTS = {
  responseType: 'code',
  scope: 'email openid profile mobile',
  // The provider puts only `sub` into the ID token when it issues an access token; e-mail and name
  // come from userinfo.
  loadUserInfo: true,
  staleStateAgeInSeconds: 900,
  /**
   * spec §9 "clock skew 5 minutes". oidc-client-ts 3 has no such setting and no use for one: it no
   * longer checks the time claims of ID tokens (they come straight from the token endpoint over TLS)
   * and computes `expires_at` from `expires_in` on the local clock. Kept here as the product value for
   * code that compares provider times with local ones.
   */
  clockSkewInSeconds: 300,
  silentRequestTimeoutInSeconds: 10,
  /** spec §9: the explicit renew of the wrapper waits longer than the automatic one. */
  renewTimeoutInSeconds: 60,
  accessTokenExpiringNotificationTimeInSeconds: 60,
  automaticSilentRenew: true,
  monitorSession: true,
  checkSessionIntervalInSeconds: 2,
  popupWindowFeatures: { height: 640 },
  /**
   * Prefix of the sessionStorage entries. oidc-client-ts keys the user as
   * `user:${authority}:${client_id}`, so the stored user lives at `oidc.user:<authority>:<client id>`:
   * one per authority and client (spec §3), gone when the tab closes.
   */
  userStorePrefix: 'oidc.',
  /**
   * Prefix of the pending sign-in states (each with its PKCE code_verifier), also in sessionStorage:
   * oidc-client-ts' default is localStorage, shared by all tabs and kept after they close. Apart
   * from the user's prefix, so that clearing the states can never take the user along.
   */
  stateStorePrefix: 'oidc.state.',
  /** Timeout of the calls this package makes itself (userinfo, APIs with the access token). */
  requestTimeoutInSeconds: 10,
} as const;
