import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type EmbeddedProvider,
  startEmbeddedProvider,
  TEST_ADMIN_CLIENT,
} from '../test-support/embedded-provider';
import { ProviderClient, ProviderUnreachableError } from './provider-client';
import { findProviderUser, setProviderUserStatus } from './users';

let provider: EmbeddedProvider;
let client: ProviderClient;
beforeAll(async () => {
  provider = await startEmbeddedProvider();
  client = new ProviderClient({ baseUrl: provider.url, ...TEST_ADMIN_CLIENT });
}, 90_000);
afterAll(() => provider?.stop());

describe('ProviderClient against the embedded provider', () => {
  it('finds the seeded demo user and says so for an unknown e-mail', async () => {
    const demo = await findProviderUser(client, 'demo@concierge.test');
    expect(demo).toMatchObject({ exists: true, status: 'VERIFIED' });
    expect(await findProviderUser(client, 'nobody@example.ch')).toEqual({ exists: false });
  });

  it('changes a user status with the cached token and reads the envelope', async () => {
    const demo = await findProviderUser(client, 'demo@concierge.test');
    if (!demo.exists) throw new Error('demo user missing');
    expect((await setProviderUserStatus(client, demo.sub, 'VERIFIED')).ok).toBe(true);
    const unknown = await setProviderUserStatus(client, 'no-such-sub', 'VERIFIED');
    expect(unknown).toMatchObject({ ok: false, status: 404 });
  });

  it('refuses to work with wrong client credentials', async () => {
    const wrong = new ProviderClient({
      baseUrl: provider.url,
      clientId: TEST_ADMIN_CLIENT.clientId,
      clientSecret: 'wrong-secret-123456',
    });
    await expect(findProviderUser(wrong, 'demo@concierge.test')).rejects.toThrow(
      /refused the server's client credentials/,
    );
  });

  it('reports an unreachable provider as an unknown outcome', async () => {
    const offline = new ProviderClient({
      baseUrl: 'http://127.0.0.1:9',
      ...TEST_ADMIN_CLIENT,
      timeoutMs: 500,
    });
    await expect(findProviderUser(offline, 'demo@concierge.test')).rejects.toBeInstanceOf(
      ProviderUnreachableError,
    );
  });
});
