import { isKnownWebhookEventType, normaliseEmail, type ParsedWebhookEvent } from '@concierge/contracts';
import type { ProviderClient } from '../provider-client/provider-client';
import type { TenantRegistry } from '../tenants/tenant-registry';
import type { CounterEvent } from './apply-webhook-event';

/** The event could not be tied to an e-mail yet: the provider must deliver it again later. */
export const UNRESOLVED = 'unresolved';

/**
 * What the event means for the counter: undefined for an event the counter has no use for (unknown
 * type, no account), UNRESOLVED when its account cannot be looked up right now. cidaas's events are
 * not recorded (cidaas-facts.md, "Webhooks"): one that names only a `sub` is resolved to its e-mail
 * through the admin API instead of being dropped.
 */
export async function counterEventOf(
  event: ParsedWebhookEvent,
  registry: TenantRegistry,
  provider: ProviderClient,
): Promise<CounterEvent | undefined | typeof UNRESOLVED> {
  if (!isKnownWebhookEventType(event.eventtype)) return undefined;
  let email = event.email ? normaliseEmail(event.email) : '';
  if (!email && event.sub) {
    const user = await provider.findUserBySub(event.sub);
    if (user.kind !== 'answer') return UNRESOLVED;
    email = user.data?.email ?? '';
  }
  if (!email) return undefined;
  const clientId = event.client_id ?? '';
  // An unknown client keeps its events under its own id, so that nothing is lost when the registry
  // learns of it later.
  const tenant = registry.byClientId(clientId)?.subdomain ?? clientId;
  return {
    id: event.id,
    eventtype: event.eventtype,
    tenant,
    email,
    ...(event.sub ? { sub: event.sub } : {}),
  };
}
