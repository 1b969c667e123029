import { z } from 'zod';

/** The events the provider reports to the server (provider-protocol.md, "Webhooks"). */
export const WEBHOOK_EVENT_TYPES = [
  'LOGIN_FAILURE',
  'LOGIN_WITH_CIDAAS',
  'ACCOUNT_LOCKED',
  'ACCOUNT_ACTIVATED',
  'PASSWORD_RESET',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isKnownWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/** What the embedded provider sends; cidaas sends other fields, which the schema below reads too. */
export interface WebhookEvent {
  /** Unique per event; delivery is at least once, so the receiver deduplicates by it. */
  id: string;
  eventtype: WebhookEventType;
  /** ISO 8601. */
  timestamp: string;
  client_id: string;
  sub?: string;
  /** Normalised (trimmed, lower case); present for failures with unknown e-mails too. */
  email?: string;
}

const optionalText = z
  .string()
  .max(1000)
  .nullish()
  .transform((value) => value ?? undefined);

/** A time as ISO 8601 or epoch milliseconds (cidaas's `createTime`): either form, as text. */
const optionalTime = z
  .union([z.string().max(100), z.number().finite()])
  .nullish()
  .transform((value) => (value === null || value === undefined ? undefined : String(value)));

/**
 * Parses a webhook body tolerantly: only `eventtype` is required; unknown fields are kept; null counts
 * as absent. The embedded provider sends `id`, `timestamp`, `client_id`, `sub` and `email`; the one
 * body cidaas documents (cidaas-facts.md, "Webhooks") has `eventtype`, `createTime`, `client_id`,
 * `tenantKey`, `actorId`, `objectId`, `objectType` and no `id`, `sub` or e-mail. Check the type with
 * isKnownWebhookEventType and ignore the rest.
 */
export const webhookEventSchema = z
  .object({
    id: optionalText.pipe(z.string().min(1).max(200).optional()),
    eventtype: z.string().min(1).max(100),
    timestamp: optionalTime,
    createTime: optionalTime,
    client_id: optionalText,
    sub: optionalText,
    userId: optionalText,
    actorId: optionalText,
    objectId: optionalText,
    objectType: optionalText,
    email: optionalText,
  })
  .loose();
export type ParsedWebhookEvent = z.output<typeof webhookEventSchema>;
