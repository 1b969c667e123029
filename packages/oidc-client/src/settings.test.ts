// @vitest-environment jsdom
import { OidcClient } from 'oidc-client-ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOidcClient } from './client';
import { OIDC_CLIENT_DEFAULTS } from './defaults';
import { createUserManagerSettings } from './settings';
import { AUTHORITY, CLIENT_ID, OPTIONS, providerFetch, signedInUser } from './test-fixtures';

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
  localStorage.clear();
});

describe('UserManager settings', () => {
  it('carries the product defaults (spec §1, §9)', () => {
    const { userStore, stateStore, ...settings } = createUserManagerSettings(OPTIONS);
    expect(settings).toEqual({
      authority: AUTHORITY,
      client_id: CLIENT_ID,
      redirect_uri: 'http://localhost:8082/callback',
      post_logout_redirect_uri: 'http://localhost:8082/',
      silent_redirect_uri: 'http://localhost:8082/silent-renew',
      response_type: 'code',
      scope: 'email openid profile mobile',
      loadUserInfo: true,
      staleStateAgeInSeconds: 900,
      silentRequestTimeoutInSeconds: 10,
      accessTokenExpiringNotificationTimeInSeconds: 60,
      automaticSilentRenew: true,
      monitorSession: true,
      checkSessionIntervalInSeconds: 2,
      popupWindowFeatures: { height: 640 },
    });
    expect(userStore).toBeDefined();
    expect(stateStore).toBeDefined();
  });

  it('reach the UserManager, with oidc-client-ts filling in what is left open', () => {
    const { settings } = createOidcClient({
      ...OPTIONS,
      silentRedirectUri: undefined,
      scope: 'openid email',
    }).userManager;
    expect(settings.scope).toBe('openid email');
    expect(settings.response_type).toBe('code');
    expect(settings.loadUserInfo).toBe(true);
    expect(settings.monitorSession).toBe(true);
    expect(settings.automaticSilentRenew).toBe(true);
    expect(settings.checkSessionIntervalInSeconds).toBe(2);
    expect(settings.silentRequestTimeoutInSeconds).toBe(10);
    expect(settings.staleStateAgeInSeconds).toBe(900);
    expect(settings.accessTokenExpiringNotificationTimeInSeconds).toBe(60);
    expect(settings.popupWindowFeatures.height).toBe(640);
    expect(settings.disablePKCE).toBe(false);
    expect(settings.silent_redirect_uri).toBe(OPTIONS.redirectUri);
    expect(settings.popup_redirect_uri).toBe(OPTIONS.redirectUri);
  });

  it('stores the user in sessionStorage under one key per authority and client', async () => {
    const client = createOidcClient(OPTIONS);
    await client.userManager.storeUser(signedInUser());

    expect(sessionStorage.getItem(`oidc.user:${AUTHORITY}:${CLIENT_ID}`)).toContain(
      '"access_token":"access-token"',
    );
    expect(localStorage.length).toBe(0);
    const otherClient = createOidcClient({ ...OPTIONS, clientId: 'another-client' });
    expect(await otherClient.getUser()).toBeNull();
    expect((await client.getUser())?.profile.sub).toBe('user-1');
  });

  it('asks for an authorization code with PKCE S256 and the default scope', async () => {
    vi.stubGlobal('fetch', vi.fn(providerFetch));
    const request = await new OidcClient(createUserManagerSettings(OPTIONS)).createSigninRequest({
      request_type: 'si:r',
    });
    const url = new URL(request.url);

    expect(`${url.origin}${url.pathname}`).toBe(`${AUTHORITY}/authz-srv/authz`);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('scope')).toBe(OIDC_CLIENT_DEFAULTS.scope);
    expect(url.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(url.searchParams.get('redirect_uri')).toBe(OPTIONS.redirectUri);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
