import { randomUUID } from 'node:crypto';
import type { WebhookEvent, WebhookEventType } from '@concierge/contracts';
import type { ProviderDb } from '../db/schema';
import { enqueue } from '../outbox/outbox';

export interface WebhookEventFields {
  clientId: string;
  sub?: string;
  email?: string;
}

export function newWebhookEvent(eventtype: WebhookEventType, fields: WebhookEventFields): WebhookEvent {
  return {
    id: randomUUID(),
    eventtype,
    timestamp: new Date().toISOString(),
    client_id: fields.clientId,
    ...(fields.sub ? { sub: fields.sub } : {}),
    ...(fields.email ? { email: fields.email } : {}),
  };
}

/** Call with the transaction of the change the events report; returns their ids for delivery. */
export function enqueueWebhookEvents(trx: ProviderDb, events: readonly WebhookEvent[]): Promise<string[]> {
  return enqueue(
    trx,
    'webhook_outbox',
    events.map((event) => ({ id: event.id, payload: event })),
  );
}
