import {
  failure,
  isKnownWebhookEventType,
  normaliseEmail,
  type ParsedWebhookEvent,
  PORTAL_API_PREFIX,
  webhookEventSchema,
} from '@concierge/contracts';
import type { Kysely } from '@concierge/database';
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../../config';
import type { ServerTables } from '../../db/schema';
import { applyWebhookEvent, type CounterEvent } from '../../failed-logins/apply-webhook-event';
import { isSameSecret } from '../../http/api-key';
import { parseInput } from '../../http/parse-input';
import type { TenantRegistry } from '../../tenants/tenant-registry';

interface ProviderEventsOptions {
  db: Kysely<ServerTables>;
  registry: TenantRegistry;
  webhook: ServerConfig['webhook'];
}

/**
 * The provider's webhooks (provider-protocol.md, "Webhooks"): the API key first, then a tolerant
 * parse; events the counter has no use for are acknowledged and dropped, so the provider stops
 * retrying them.
 */
export async function providerEventRoutes(app: FastifyInstance, options: ProviderEventsOptions) {
  const { db, registry, webhook } = options;

  app.post(
    `${PORTAL_API_PREFIX}/events`,
    {
      // Before the body is read: without the key nothing of the request is looked at.
      onRequest: async (request, reply) => {
        const presented = request.headers[webhook.header];
        if (!isSameSecret(typeof presented === 'string' ? presented : undefined, webhook.apiKey)) {
          return reply.status(401).send(failure(401, 'unauthorized', 'Missing or wrong API key.'));
        }
      },
    },
    async (request) => {
      const event = counterEventOf(parseInput(webhookEventSchema, request.body), registry);
      const outcome = event ? await applyWebhookEvent(db, event) : 'ignored';
      request.log.debug({ eventId: event?.id, outcome }, 'provider event');
      return { success: true, status: 200, data: { outcome } };
    },
  );
}

/**
 * What the event means for the counter, or undefined when nothing: an unknown type, or no e-mail to
 * count under (an event with only a `sub` cannot be tied to the e-mail the login page asks about).
 */
function counterEventOf(event: ParsedWebhookEvent, registry: TenantRegistry): CounterEvent | undefined {
  if (!isKnownWebhookEventType(event.eventtype)) return undefined;
  const email = event.email ? normaliseEmail(event.email) : '';
  if (!email) return undefined;
  const clientId = event.client_id ?? '';
  // An unknown client keeps its events under its own id, so that nothing is lost when the registry
  // learns of it later.
  const tenant = registry.byClientId(clientId)?.subdomain ?? clientId;
  return { id: event.id, eventtype: event.eventtype, tenant, email };
}
