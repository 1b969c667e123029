import type { ProviderClient } from '../provider-client/provider-client';
import type { ProviderUser } from '../provider-client/users';

/** The provider's user with this e-mail as the admin API reads it (status, e-mail verified), or null. */
export async function providerUserOf(provider: ProviderClient, email: string): Promise<ProviderUser | null> {
  const found = await provider.findUserByEmail(email);
  if (found.kind !== 'answer') throw new Error(`the look-up failed: ${JSON.stringify(found)}`);
  if (!found.data) return null;
  const user = await provider.findUserBySub(found.data.sub);
  if (user.kind !== 'answer') throw new Error(`the look-up failed: ${JSON.stringify(user)}`);
  return user.data;
}

/**
 * A user made at the provider directly, as an account from before Concierge is (no registration of
 * Concierge's): its e-mail verified unless told otherwise, and DECLINED when `declined`.
 */
export async function userAtProvider(
  provider: ProviderClient,
  email: string,
  state: { verified?: boolean; declined?: boolean } = {},
): Promise<{ sub: string }> {
  const requestId = await provider.generateRequestId({
    clientId: 'property-portal-demo',
    redirectUri: 'http://localhost:8082/callback',
  });
  if (requestId.kind !== 'answer') throw new Error('no request id');
  const user = await provider.registerUser({ requestId: requestId.data, email, password: 'Start-Pass1!' });
  if (user.kind !== 'answer')
    throw new Error(`the provider did not register the user: ${JSON.stringify(user)}`);
  const { sub } = user.data;
  if (state.verified !== false && (await provider.verifyAccount(sub)).kind !== 'answer')
    throw new Error('not verified');
  if (state.declined && (await provider.lockAccount(sub)).kind !== 'answer') throw new Error('not declined');
  return { sub };
}
