import type Provider from 'oidc-provider';
import type { ProviderConfig } from '../config';
import type { ProviderDb } from '../db/schema';
import type { ClientDirectory } from '../oidc/clients';

/** What every route plugin is handed; services take these as arguments (STYLE: testable). */
export interface RouteDeps {
  config: ProviderConfig;
  db: ProviderDb;
  provider: Provider;
  clients: ClientDirectory;
}
