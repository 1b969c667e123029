import type { WebhookEvent } from '@concierge/contracts';
import type Provider from 'oidc-provider';
import type { ProviderConfig } from '../config';
import type { ProviderDb } from '../db/schema';
import type { MailMessage } from '../mail/mail-message';
import type { ProviderMetrics } from '../observability/metrics';
import type { ClientDirectory } from '../oidc/clients';
import type { OutboxRelay } from '../outbox/outbox-relay';

/** What every route plugin is handed; services take these as arguments (STYLE: testable). */
export interface RouteDeps {
  config: ProviderConfig;
  db: ProviderDb;
  provider: Provider;
  clients: ClientDirectory;
  webhooks: OutboxRelay<WebhookEvent>;
  mail: OutboxRelay<MailMessage>;
  metrics: ProviderMetrics;
}
