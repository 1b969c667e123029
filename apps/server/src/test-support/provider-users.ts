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
