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
import type { ProtectionDeps } from '../../accounts/protection/lock-applier';
import { applyLock } from '../../accounts/protection/lock-applier';
import { unlockAfterReset } from '../../accounts/protection/reset-unlock';
import {
  recordFailedSignIn,
  recordProviderLock,
  recordSignInSuccess,
} from '../../accounts/protection/sign-in-events';
import type { ServerConfig } from '../../config';
import type { ServerTables } from '../../db/schema';
import { accountEventOf, type ProviderAccountEvent, UNRESOLVED } from '../../failed-logins/provider-event';
import { matchingSecret } from '../../http/api-key';
import { parseInput } from '../../http/parse-input';
import type { ServerMetrics } from '../../observability/metrics';
import type { ProviderClient } from '../../provider-client/provider-client';
import type { TenantRegistry } from '../../tenants/tenant-registry';

/**
 * The body fields the intake reads: those webhookEventSchema names (accountEventOf reads them). The
 * safe-text guard looks at these only.
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
 * The provider's webhooks (docs/provider-protocol.md, "Webhooks"): the API key first (in its header,
 * or in the query string under the same name, as cidaas lets the operator choose), then a tolerant
 * parse; events account protection has no use for are acknowledged and dropped, so the provider stops
 * retrying them. An event whose account cannot be looked up or unlocked now is answered 503: the
 * provider delivers it again (cidaas: after 1, 5 and 10 minutes).
 */
export async function providerEventRoutes(app: FastifyInstance, options: ProviderEventsOptions) {
  const { db, registry, provider, webhook, metrics } = options;

  app.post<{ Querystring: Record<string, unknown> }>(
    `${PORTAL_API_PREFIX}/events`,
    {
      // Unsafe text is refused in the fields the intake reads; cidaas's others may hold anything.
      config: { safeTextBodyFields: WEBHOOK_BODY_FIELDS },
      // Before the body is read: without one of the accepted keys (two while the key is rotated,
      // docs/operations.md, "Rotating a secret") nothing of the request is looked at.
      onRequest: async (request, reply) => {
        const presented = presentedKey(request.headers, request.query, webhook.header);
        if (matchingSecret(presented, webhook.apiKeys) === -1) {
          metrics.authRefusals.inc({ surface: 'webhook' });
          request.log.warn(
            { surface: 'webhook', keyPresented: presented !== undefined },
            'webhook refused: missing or wrong API key',
          );
          return reply.status(401).send(failure(401, 'unauthorized', 'Missing or wrong API key.'));
        }
      },
    },
    async (request, reply) => {
      const parsed = parseInput(webhookEventSchema, request.body);
      const eventtype = isKnownWebhookEventType(parsed.eventtype) ? parsed.eventtype : 'other';
      observeLag(metrics, parsed, eventtype);
      const event = await accountEventOf(parsed, registry, provider);
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
      const outcome = event
        ? await applyEvent({ db, provider, log: request.log }, event, metrics, registry)
        : 'ignored';
      note(outcome);
      if (outcome === 'retry') {
        return reply
          .status(503)
          .send(failure(503, 'retry', 'The account could not be unlocked yet. Deliver it again.'));
      }
      return { success: true, status: 200, data: { outcome } };
    },
  );
}

/** The key as presented: its header, else a query parameter of the same name (any case). */
function presentedKey(
  headers: Record<string, string | string[] | undefined>,
  query: Record<string, unknown>,
  name: string,
): string | undefined {
  const header = headers[name];
  if (typeof header === 'string') return header;
  const wanted = name.toLowerCase();
  const entry = Object.entries(query ?? {}).find(([key]) => key.toLowerCase() === wanted);
  return typeof entry?.[1] === 'string' ? entry[1] : undefined;
}

/**
 * One event into account protection (accounts/protection/). A failure that makes a lock due sets it
 * at once, so that the next attempt meets it; a reset lifts it, and an unlock that failed is
 * answered with a 503 for the provider to deliver the event again.
 */
async function applyEvent(
  deps: ProtectionDeps,
  event: ProviderAccountEvent,
  metrics: ServerMetrics,
  registry: TenantRegistry,
): Promise<string> {
  const { db } = deps;
  const account = { key: event.key, email: event.email, at: event.at };
  switch (event.eventtype) {
    case 'LOGIN_FAILURE': {
      const failure = await recordFailedSignIn(db, { ...account, tenant: event.tenant, sub: event.sub });
      // Per tenant of the registry; an unknown client's events count under `unknown`.
      const tenantLabel = registry.bySubdomain(event.tenant) ? event.tenant : 'unknown';
      if (failure.outcome === 'counted') metrics.signInFailures.inc({ tenant: tenantLabel });
      if (failure.isNewLock) metrics.locksRequested.inc({ tenant: tenantLabel });
      if (failure.isLockDue) metrics.lockApplications.inc({ outcome: await applyLock(deps, event.email) });
      return failure.outcome === 'counted' ? 'applied' : failure.outcome;
    }
    case 'ACCOUNT_LOCKED':
      return recordProviderLock(db, account);
    case 'LOGIN_WITH_CIDAAS':
    case 'ACCOUNT_ACTIVATED':
      return recordSignInSuccess(db, account);
    case 'PASSWORD_RESET': {
      const unlocked = await unlockAfterReset(deps, { ...account, eventKey: event.key, isOwnReset: false });
      return unlocked === 'retry' || unlocked === 'duplicate' ? unlocked : 'applied';
    }
  }
}

/**
 * Webhook lag: from the event's own timestamp (ISO 8601, or epoch milliseconds) to now. A clock a
 * little ahead of ours counts as no lag; an event without a readable timestamp is not timed.
 */
function observeLag(metrics: ServerMetrics, event: ParsedWebhookEvent, eventtype: string): void {
  const timestamp = event.createTime ?? event.timestamp;
  if (!timestamp) return;
  const at = /^\d+$/.test(timestamp) ? Number(timestamp) : Date.parse(timestamp);
  if (!Number.isFinite(at)) return;
  metrics.webhookLag.observe({ eventtype }, Math.max(0, Date.now() - at) / 1000);
}
