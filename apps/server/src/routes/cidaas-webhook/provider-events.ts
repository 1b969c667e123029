import { failure, PORTAL_API_PREFIX, webhookEventSchema } from '@concierge/contracts';
import type { Kysely } from '@concierge/database';
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../../config';
import type { ServerTables } from '../../db/schema';
import { applyAccountLock, liftAccountLock } from '../../failed-logins/account-locks';
import { applyWebhookEvent } from '../../failed-logins/apply-webhook-event';
import { counterEventOf, UNRESOLVED } from '../../failed-logins/counter-event';
import { isSameSecret } from '../../http/api-key';
import { parseInput } from '../../http/parse-input';
import type { ProviderClient } from '../../provider-client/provider-client';
import type { TenantRegistry } from '../../tenants/tenant-registry';

interface ProviderEventsOptions {
  db: Kysely<ServerTables>;
  registry: TenantRegistry;
  provider: ProviderClient;
  webhook: ServerConfig['webhook'];
}

/**
 * The provider's webhooks (docs/provider-protocol.md, "Webhooks"): the API key first, then a tolerant
 * parse; events the counter has no use for are acknowledged and dropped, so the provider stops
 * retrying them. An event whose account cannot be looked up now is answered 503: the provider
 * delivers it again.
 */
export async function providerEventRoutes(app: FastifyInstance, options: ProviderEventsOptions) {
  const { db, registry, provider, webhook } = options;

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
    async (request, reply) => {
      const event = await counterEventOf(parseInput(webhookEventSchema, request.body), registry, provider);
      if (event === UNRESOLVED) {
        return reply
          .status(503)
          .send(failure(503, 'unresolved', 'The event cannot be tied to an account yet. Deliver it again.'));
      }
      const outcome = event ? await applyWebhookEvent(db, event) : 'ignored';
      const locks = { db, provider, log: request.log };
      // The third failure asked for a lock: set it now, so that the next attempt meets it.
      if (outcome === 'applied' && event?.eventtype === 'LOGIN_FAILURE')
        await applyAccountLock(locks, event.email);
      // A reset the server did not see through (or whose answer it lost) ends the lock all the same;
      // checked for duplicates too, since the first delivery's unlock may have failed.
      if (event?.eventtype === 'PASSWORD_RESET' && (await liftAccountLock(locks, event.email)) === 'retry') {
        return reply
          .status(503)
          .send(failure(503, 'retry', 'The account could not be unlocked yet. Deliver it again.'));
      }
      request.log.debug({ eventId: event?.id, outcome }, 'provider event');
      return { success: true, status: 200, data: { outcome } };
    },
  );
}
