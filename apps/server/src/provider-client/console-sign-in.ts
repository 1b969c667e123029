import * as oidc from 'openid-client';

export interface ConsoleClientSettings {
  /** The provider's base URL, its issuer (PROVIDER_URL). */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** PORTAL_URL/console/callback, as registered with the client. */
  redirectUri: string;
  /** PORTAL_URL/console/signed-out, the client's post-logout redirect URI. */
  signedOutUri: string;
  timeoutMs: number;
}

/** What the console keeps of a sign-in on its way: the return must match it. */
export interface ConsoleSignInStart {
  url: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** Who the provider signed in: from the ID token, whose signature, issuer, audience and nonce are checked. */
export interface ConsoleIdentity {
  sub: string;
  email: string | null;
  name: string | null;
  /** For the provider's sign-out (its id_token_hint). */
  idToken: string | null;
}

/**
 * The console's sign-in at the provider: the authorization code flow with PKCE (S256), a state and a
 * nonce, for a confidential client, by openid-client (which checks the return, the token answer and
 * the ID token as OIDC Core says). The provider's metadata is read once from its discovery document,
 * and again after a failure. The roles come from the user's profile (ProviderClient.findUserBySub),
 * not from the tokens: one documented source, read with the server's own credentials.
 */
export class ConsoleSignIn {
  readonly #settings: ConsoleClientSettings;
  #configuration: Promise<oidc.Configuration> | undefined;

  constructor(settings: ConsoleClientSettings) {
    this.#settings = settings;
  }

  async start(language: string): Promise<ConsoleSignInStart> {
    const configuration = await this.#discovered();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: this.#settings.redirectUri,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      ui_locales: language,
    });
    return { url: url.href, state, nonce, codeVerifier };
  }

  /**
   * The provider's return (`callbackUrl`, with its query) exchanged for the user's identity; throws
   * when the return is an error, does not match the start, or the code is refused.
   */
  async finish(callbackUrl: URL, started: Omit<ConsoleSignInStart, 'url'>): Promise<ConsoleIdentity> {
    const configuration = await this.#discovered();
    const tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
      pkceCodeVerifier: started.codeVerifier,
      expectedState: started.state,
      expectedNonce: started.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('the token answer carried no ID token');
    const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
    const name = [text(claims.given_name), text(claims.family_name)].filter(Boolean).join(' ');
    return {
      sub: claims.sub,
      email: text(claims.email),
      name: text(claims.name) ?? (name || null),
      idToken: tokens.id_token ?? null,
    };
  }

  /**
   * Where the browser goes to be signed out at the provider too (RP-initiated logout), which sends it
   * on to signedOutUri: on an office's shared computer, signing out of the console must not leave a
   * provider session that signs the next person in without a password. Without an end-session
   * endpoint in the provider's metadata (or the provider away), straight to signedOutUri.
   */
  async endSessionUrl(idToken: string | null): Promise<string> {
    try {
      const configuration = await this.#discovered();
      return oidc.buildEndSessionUrl(configuration, {
        post_logout_redirect_uri: this.#settings.signedOutUri,
        ...(idToken ? { id_token_hint: idToken } : {}),
      }).href;
    } catch {
      return this.#settings.signedOutUri;
    }
  }

  #discovered(): Promise<oidc.Configuration> {
    const { issuer, clientId, clientSecret, timeoutMs } = this.#settings;
    this.#configuration ??= oidc
      .discovery(new URL(issuer), clientId, undefined, oidc.ClientSecretPost(clientSecret), {
        timeout: timeoutMs / 1000,
        // The embedded provider of a development run speaks plain http on localhost.
        ...(issuer.startsWith('http:') ? { execute: [oidc.allowInsecureRequests] } : {}),
      })
      .catch((error: unknown) => {
        this.#configuration = undefined;
        throw error;
      });
    return this.#configuration;
  }
}
