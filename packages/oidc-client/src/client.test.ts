// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOidcClient } from './client';
import { OidcClientError } from './errors';
import { OPTIONS, providerFetch, signedInUser } from './test-fixtures';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  sessionStorage.clear();
  localStorage.clear();
});

/** Sign-in states (with their PKCE code_verifier) in either storage, under the `oidc.` prefix. */
function storedSignInStates(): { id: string; code_verifier: string }[] {
  return [localStorage, sessionStorage].flatMap((storage) =>
    Object.keys(storage)
      .filter((key) => key.startsWith('oidc.'))
      .map((key) => JSON.parse(storage.getItem(key) ?? '{}'))
      .filter((entry) => typeof entry.code_verifier === 'string'),
  );
}

function expectStates(count: number) {
  const states = storedSignInStates();
  expect(states).toHaveLength(count);
  return states;
}

async function expectOidcError(promise: Promise<unknown>, message: string) {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(OidcClientError);
  expect(error).toMatchObject({ status: 417, message });
}

describe('createOidcClient', () => {
  it('refuses a callback URL without a code', async () => {
    const client = createOidcClient(OPTIONS);
    const signinRedirectCallback = vi.spyOn(client.userManager, 'signinRedirectCallback');

    await expectOidcError(
      client.handleSignInCallback('http://localhost:8082/callback?state=abc'),
      'code cannot be empty',
    );
    expect(signinRedirectCallback).not.toHaveBeenCalled();
  });

  it('passes a code, and an error answer of the provider, on to oidc-client-ts', async () => {
    const client = createOidcClient(OPTIONS);
    const user = signedInUser();
    const signinRedirectCallback = vi
      .spyOn(client.userManager, 'signinRedirectCallback')
      .mockResolvedValue(user);

    const withCode = 'http://localhost:8082/callback?code=c-1&state=abc';
    await expect(client.handleSignInCallback(withCode)).resolves.toBe(user);
    expect(signinRedirectCallback).toHaveBeenCalledWith(withCode);

    signinRedirectCallback.mockRestore();
    const error = await client
      .handleSignInCallback('http://localhost:8082/callback?error=access_denied&state=unknown')
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(OidcClientError);
  });

  it('leaves no sign-in state with a code verifier in storage once a sign-in is complete', async () => {
    vi.stubGlobal('fetch', vi.fn(providerFetch));
    // jsdom cannot navigate to the provider: it only says so on the console.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const client = createOidcClient(OPTIONS);
    // One sign-in abandoned at the provider, then one that comes back.
    void client.signInRedirect();
    const [abandoned] = await vi.waitFor(() => expectStates(1));
    void client.signInRedirect();
    const states = await vi.waitFor(() => expectStates(2));
    const completed = states.find((state) => state.id !== abandoned?.id);

    const user = await client.handleSignInCallback(
      `http://localhost:8082/callback?code=c-1&state=${completed?.id}`,
    );
    expect(user.profile.sub).toBe('user-1');
    expect(storedSignInStates()).toEqual([]);
    await expect(client.getUser()).resolves.toMatchObject({ access_token: 'access-token' });
  });

  it('does not renew without a refresh token', async () => {
    const client = createOidcClient(OPTIONS);
    await expectOidcError(client.renew(), 'refresh_token cannot be empty');

    await client.userManager.storeUser(signedInUser({ refresh_token: undefined }));
    await expectOidcError(client.renew(), 'refresh_token cannot be empty');
  });

  it('renews explicitly with a 60 s timeout', async () => {
    const client = createOidcClient(OPTIONS);
    const user = signedInUser();
    await client.userManager.storeUser(user);
    const signinSilent = vi.spyOn(client.userManager, 'signinSilent').mockResolvedValue(user);

    await expect(client.renew()).resolves.toBe(user);
    expect(signinSilent).toHaveBeenCalledWith({ silentRequestTimeoutInSeconds: 60 });
  });

  it('does not call an API without an access token', async () => {
    const fetchMock = vi.fn(providerFetch);
    vi.stubGlobal('fetch', fetchMock);
    const client = createOidcClient(OPTIONS);

    await expectOidcError(
      client.fetchWithAccessToken('http://localhost:9999/api'),
      'access_token cannot be empty',
    );
    await expectOidcError(client.getUserInfo(), 'access_token cannot be empty');
    expect(fetchMock.mock.calls.map(([input]) => String(input))).not.toContain('http://localhost:9999/api');
  });

  it('reads userinfo with the access token as bearer token', async () => {
    const fetchMock = vi.fn(providerFetch);
    vi.stubGlobal('fetch', fetchMock);
    const client = createOidcClient(OPTIONS);
    await client.userManager.storeUser(signedInUser());

    await expect(client.getUserInfo()).resolves.toEqual({ sub: 'user-1', email: 'anna@example.ch' });
    const [, init] =
      fetchMock.mock.calls.find(([input]) => String(input).endsWith('/users-srv/userinfo')) ?? [];
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer access-token');
    expect(init?.signal).toBeInstanceOf(AbortSignal);
  });

  it('signs out through the provider with the ID token as hint', async () => {
    const client = createOidcClient(OPTIONS);
    await client.userManager.storeUser(signedInUser());
    const signoutRedirect = vi.spyOn(client.userManager, 'signoutRedirect').mockResolvedValue();

    await client.signOut();
    expect(signoutRedirect).toHaveBeenCalledWith({ id_token_hint: 'id-token' });
  });

  it('passes the events of the UserManager through', () => {
    const client = createOidcClient(OPTIONS);
    expect(client.events).toBe(client.userManager.events);
  });
});
