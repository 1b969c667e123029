import { createHash, randomUUID } from 'node:crypto';
import {
  isKnownWebhookEventType,
  normaliseEmail,
  type ParsedWebhookEvent,
  type WebhookEventType,
} from '@concierge/contracts';
import type { ProviderClient } from '../provider-client/provider-client';
import type { TenantRegistry } from '../tenants/tenant-registry';

/** A provider event reduced to what account protection needs. */
export interface ProviderAccountEvent {
  eventtype: WebhookEventType;
  /** The event's id, or what stands for it (eventKeyOf). */
  key: string;
  /** Normalised. */
  email: string;
  /** The tenant's subdomain, or the event's client id when no tenant has that client. */
  tenant: string;
  /** The event's own time (never later than its arrival). */
  at: Date;
  /** The account's sub, when the provider itself gave the e-mail for it (never an event's say-so). */
  sub?: string;
}

/** The event could not be tied to an e-mail yet: the provider must deliver it again later. */
export const UNRESOLVED = 'unresolved';

/**
 * What the event means for account protection: undefined for an event it has no use for (unknown
 * type, no account), UNRESOLVED when its account cannot be looked up right now. The user comes from
 * whichever field names it (cidaas-facts.md, "Webhooks": the documented body names only `actorId`
 * and `objectId`, never an e-mail); an event without an e-mail is resolved through the admin API
 * instead of being dropped. An event's own `sub` is only ever used to find the e-mail: the lock is
 * set on the account the provider says the e-mail has, so an event naming one account's e-mail and
 * another's sub cannot lock the other.
 */
export async function accountEventOf(
  event: ParsedWebhookEvent,
  registry: TenantRegistry,
  provider: ProviderClient,
  receivedAt = new Date(),
): Promise<ProviderAccountEvent | undefined | typeof UNRESOLVED> {
  if (!isKnownWebhookEventType(event.eventtype)) return undefined;
  let email = event.email ? normaliseEmail(event.email) : '';
  let confirmedSub: string | undefined;
  const subject = subjectOf(event);
  if (!email && subject) {
    const user = await provider.findUserBySub(subject);
    if (user.kind !== 'answer') return UNRESOLVED;
    email = user.data?.email ?? '';
    confirmedSub = user.data?.sub;
  }
  if (!email) return undefined;
  const clientId = event.client_id ?? '';
  // An unknown client keeps its events under its own id, so that nothing is lost when the registry
  // learns of it later.
  const tenant = registry.byClientId(clientId)?.subdomain ?? (clientId || 'unknown');
  return {
    eventtype: event.eventtype,
    key: eventKeyOf(event, subject ?? email),
    email,
    tenant,
    at: eventTimeOf(event, receivedAt),
    ...(confirmedSub ? { sub: confirmedSub } : {}),
  };
}

/** The user an event names: `sub`, `userId`, `actorId`, or an `objectId` whose `objectType` is a user. */
function subjectOf(event: ParsedWebhookEvent): string | undefined {
  const isUserObject = event.objectType === undefined || /user/i.test(event.objectType);
  return event.sub ?? event.userId ?? event.actorId ?? (isUserObject ? event.objectId : undefined);
}

/**
 * The key a redelivery repeats: the event's `id`; without one (cidaas's documented body), the type,
 * time, user and client, which a retry of the same event repeats too. An event with neither id nor
 * time gets a key of its own: every delivery then counts, which errs towards locking earlier, never
 * towards letting a guess go uncounted.
 */
function eventKeyOf(event: ParsedWebhookEvent, subject: string): string {
  if (event.id) return event.id;
  const time = event.createTime ?? event.timestamp;
  if (!time) return `undated:${randomUUID()}`;
  const parts = [event.eventtype, time, subject, event.client_id ?? ''].join('\n');
  return `derived:${createHash('sha256').update(parts).digest('hex')}`;
}

/**
 * The event's own time (ISO 8601, or epoch milliseconds): the order in which an account's events
 * apply. One without a readable time, ahead of this server's clock or before 1970 (beyond what the
 * database keeps, at the extreme), counts as arriving now.
 */
export function eventTimeOf(event: ParsedWebhookEvent, receivedAt: Date): Date {
  const text = event.createTime ?? event.timestamp;
  if (!text) return receivedAt;
  const at = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isFinite(at) || at <= 0 || at > receivedAt.getTime()) return receivedAt;
  return new Date(at);
}
