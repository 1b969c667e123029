import {
  type SigninPopupArgs,
  type SigninRedirectArgs,
  type SignoutRedirectArgs,
  type User,
  UserManager,
  type UserManagerEvents,
} from 'oidc-client-ts';
import { OIDC_CLIENT_DEFAULTS } from './defaults';
import { OIDC_CLIENT_ERROR_MESSAGES, OidcClientError } from './errors';
import { createUserManagerSettings, type OidcClientOptions } from './settings';

export interface OidcClient {
  /** Goes to the provider's authorization endpoint (code + PKCE). */
  signInRedirect(args?: SigninRedirectArgs): Promise<void>;
  /** On the redirect_uri page: exchanges the code and stores the user. */
  handleSignInCallback(url?: string): Promise<User>;
  signInPopup(args?: SigninPopupArgs): Promise<User>;
  /** On the popup_redirect_uri page: hands the answer to the opening window. */
  handlePopupCallback(url?: string): Promise<void>;
  /** On the silent_redirect_uri page: hands the answer to the parent window. */
  handleSilentRenewCallback(url?: string): Promise<void>;
  /** Forgets the user locally and ends the provider session (end_session with id_token_hint). */
  signOut(args?: SignoutRedirectArgs): Promise<void>;
  getUser(): Promise<User | null>;
  /** Forgets the user in this browser only, e.g. after the provider reported a sign-out elsewhere. */
  removeUser(): Promise<void>;
  /** Explicit renew with the refresh token, waiting up to 60 s (spec §9). */
  renew(): Promise<User>;
  /** fetch with `Authorization: Bearer <access token>`; times out after 10 s unless a signal is given. */
  fetchWithAccessToken(input: string | URL, init?: RequestInit): Promise<Response>;
  /** Reads the provider's userinfo endpoint with the current access token. */
  getUserInfo(): Promise<Record<string, unknown>>;
  readonly events: UserManagerEvents;
  /** The underlying oidc-client-ts instance, for what this wrapper does not cover. */
  readonly userManager: UserManager;
}

function callbackParams(url: string): URLSearchParams {
  const parsed = new URL(url, window.location.href);
  // response_mode "fragment" puts the answer after the #; the product uses "query".
  return new URLSearchParams(parsed.search || parsed.hash.slice(1));
}

export function createOidcClient(options: OidcClientOptions): OidcClient {
  const userManager = new UserManager(createUserManagerSettings(options));

  /**
   * oidc-client-ts removes the state it has just used; sign-ins started in this tab and abandoned (the
   * back button, a restarted sign-in) would keep theirs, code_verifier included, until they are 15
   * minutes old and the next sign-in clears them. Once signed in, none of them can still be needed.
   */
  async function dropPendingSignIns() {
    const { stateStore } = userManager.settings;
    const keys = await stateStore.getAllKeys();
    await Promise.all(keys.map((key) => stateStore.remove(key)));
  }

  async function fetchWithAccessToken(input: string | URL, init: RequestInit = {}): Promise<Response> {
    const user = await userManager.getUser();
    if (!user?.access_token) throw new OidcClientError(OIDC_CLIENT_ERROR_MESSAGES.accessTokenEmpty);
    const headers = new Headers(init.headers);
    headers.set('Authorization', `Bearer ${user.access_token}`);
    const signal = init.signal ?? AbortSignal.timeout(OIDC_CLIENT_DEFAULTS.requestTimeoutInSeconds * 1000);
    return fetch(input, { ...init, headers, signal });
  }

  return {
    signInRedirect: (args) => userManager.signinRedirect(args),

    async handleSignInCallback(url = window.location.href) {
      const params = callbackParams(url);
      // An error answer from the provider goes to oidc-client-ts, which reports it and drops the state.
      if (!params.get('error') && !params.get('code')) {
        throw new OidcClientError(OIDC_CLIENT_ERROR_MESSAGES.codeEmpty);
      }
      const user = await userManager.signinRedirectCallback(url);
      await dropPendingSignIns();
      return user;
    },

    signInPopup: (args) => userManager.signinPopup(args),
    // The opener and the parent check the answer; failing here would leave them waiting for a timeout.
    handlePopupCallback: (url) => userManager.signinPopupCallback(url),
    handleSilentRenewCallback: (url) => userManager.signinSilentCallback(url),

    async signOut(args = {}) {
      const user = await userManager.getUser();
      await userManager.signoutRedirect({ id_token_hint: user?.id_token, ...args });
    },

    getUser: () => userManager.getUser(),
    removeUser: () => userManager.removeUser(),

    async renew() {
      const user = await userManager.getUser();
      if (!user?.refresh_token) throw new OidcClientError(OIDC_CLIENT_ERROR_MESSAGES.refreshTokenEmpty);
      const renewed = await userManager.signinSilent({
        silentRequestTimeoutInSeconds: OIDC_CLIENT_DEFAULTS.renewTimeoutInSeconds,
      });
      // With a refresh token oidc-client-ts never answers null; this only narrows the type.
      if (!renewed) throw new Error('Silent renew returned no user');
      return renewed;
    },

    fetchWithAccessToken,

    async getUserInfo() {
      const endpoint = await userManager.metadataService.getUserInfoEndpoint();
      const response = await fetchWithAccessToken(endpoint, { headers: { Accept: 'application/json' } });
      if (!response.ok) throw new Error(`userinfo answered ${response.status}`);
      return (await response.json()) as Record<string, unknown>;
    },

    events: userManager.events,
    userManager,
  };
}
