import {
  failure,
  isKnownWebhookEventType,
  type ParsedWebhookEvent,
  PORTAL_API_PREFIX,
  webhookEventSchema,
} from '@concierge/contracts';
import type { Kysely } from '@concierge/database';
import { noteForLog } from '@concierge/observability';
import type { FastifyInstance } from 'fastify';
import { applyAccountLock, liftAccountLock } from '../../accounts/account-locks';
import type { ServerConfig } from '../../config';
import type { ServerTables } from '../../db/schema';
import { applyWebhookEvent } from '../../failed-logins/apply-webhook-event';
import { counterEventOf, UNRESOLVED } from '../../failed-logins/counter-event';
import { isSameSecret } from '../../http/api-key';
import { parseInput } from '../../http/parse-input';
import type { ServerMetrics } from '../../observability/metrics';
import type { ProviderClient } from '../../provider-client/provider-client';
import type { TenantRegistry } from '../../tenants/tenant-registry';

/**
 * The body fields the intake reads: those webhookEventSchema names (counterEventOf reads id, eventtype,
 * client_id, sub and email; the schema checks the timestamp). The safe-text guard looks at these only.
 */
export const WEBHOOK_BODY_FIELDS: readonly string[] = Object.keys(webhookEventSchema.shape);

interface ProviderEventsOptions {
  db: Kysely<ServerTables>;
  registry: TenantRegistry;
  provider: ProviderClient;
  webhook: ServerConfig['webhook'];
  metrics: ServerMetrics;
}

/**
 * The provider's webhooks (docs/provider-protocol.md, "Webhooks"): the API key first, then a tolerant
 * parse; events the counter has no use for are acknowledged and dropped, so the provider stops
 * retrying them. An event whose account cannot be looked up now is answered 503: the provider
 * delivers it again.
 */
export async function providerEventRoutes(app: FastifyInstance, options: ProviderEventsOptions) {
  const { db, registry, provider, webhook, metrics } = options;

  app.post(
    `${PORTAL_API_PREFIX}/events`,
    {
      // Unsafe text is refused in the fields the intake reads; cidaas's others may hold anything.
      config: { safeTextBodyFields: WEBHOOK_BODY_FIELDS },
      // Before the body is read: without the key nothing of the request is looked at.
      onRequest: async (request, reply) => {
        const presented = request.headers[webhook.header];
        if (!isSameSecret(typeof presented === 'string' ? presented : undefined, webhook.apiKey)) {
          return reply.status(401).send(failure(401, 'unauthorized', 'Missing or wrong API key.'));
        }
      },
    },
    async (request, reply) => {
      const parsed = parseInput(webhookEventSchema, request.body);
      const eventtype = isKnownWebhookEventType(parsed.eventtype) ? parsed.eventtype : 'other';
      observeLag(metrics, parsed, eventtype);
      const event = await counterEventOf(parsed, registry, provider);
      const note = (outcome: string) => {
        metrics.webhookEvents.inc({ eventtype, outcome });
        noteForLog(request, {
          outcome,
          ...(event && event !== UNRESOLVED && registry.bySubdomain(event.tenant)
            ? { tenant: event.tenant }
            : {}),
        });
      };
      if (event === UNRESOLVED) {
        note('unresolved');
        return reply
          .status(503)
          .send(failure(503, 'unresolved', 'The event cannot be tied to an account yet. Deliver it again.'));
      }
      const outcome = event ? await applyWebhookEvent(db, event) : 'ignored';
      note(outcome);
      if (outcome === 'applied' && event?.eventtype === 'LOGIN_FAILURE') {
        // Per tenant of the registry; an unknown client's events count under `unknown`.
        metrics.signInFailures.inc({ tenant: registry.bySubdomain(event.tenant) ? event.tenant : 'unknown' });
      }
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

/**
 * Webhook lag: from the event's own timestamp (ISO 8601, or epoch milliseconds) to now. A clock a
 * little ahead of ours counts as no lag; an event without a readable timestamp is not timed.
 */
function observeLag(metrics: ServerMetrics, event: ParsedWebhookEvent, eventtype: string): void {
  const { timestamp } = event;
  if (!timestamp) return;
  const at = /^\d+$/.test(timestamp) ? Number(timestamp) : Date.parse(timestamp);
  if (!Number.isFinite(at)) return;
  metrics.webhookLag.observe({ eventtype }, Math.max(0, Date.now() - at) / 1000);
}
