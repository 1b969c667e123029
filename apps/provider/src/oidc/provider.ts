import Provider from 'oidc-provider';
import type { ProviderConfig } from '../config';
import type { ProviderDb } from '../db/schema';
import type { ClientDirectory } from './clients';
import { createOidcConfiguration } from './configuration';
import { loadOrCreateKeys } from './keys';

export async function createOidcProvider(
  config: ProviderConfig,
  db: ProviderDb,
  clients: ClientDirectory,
): Promise<Provider> {
  const keys = await loadOrCreateKeys(db);
  return new Provider(config.issuer, createOidcConfiguration({ config, db, keys, clients }));
}
