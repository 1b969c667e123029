import Provider from 'oidc-provider';
import type { ProviderConfig } from '../config';
import type { ProviderDb } from '../db/schema';
import type { ClientDirectory } from './clients';
import { createOidcConfiguration, SESSION_TTL_SECONDS } from './configuration';
import { loadOrCreateKeys } from './keys';
import { installSessionManagement } from './session-management';

export async function createOidcProvider(
  config: ProviderConfig,
  db: ProviderDb,
  clients: ClientDirectory,
): Promise<Provider> {
  const keys = await loadOrCreateKeys(db);
  const provider = new Provider(config.issuer, createOidcConfiguration({ config, db, keys, clients }));
  installSessionManagement(provider, {
    secret: `browser-state:${keys.cookieKeys[0]}`,
    isSecure: new URL(config.issuer).protocol === 'https:',
    maxAgeSeconds: SESSION_TTL_SECONDS,
  });
  return provider;
}
