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

/** What the embedded provider sends; cidaas sends more fields, which the schema below lets through. */
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

/**
 * Parses a webhook body tolerantly (a real cidaas tenant sends more, and other event types): only
 * `id` and `eventtype` are required; unknown fields are kept; null counts as absent. Check the type
 * with isKnownWebhookEventType and ignore the rest.
 */
export const webhookEventSchema = z
  .object({
    id: z.string().min(1).max(200),
    eventtype: z.string().min(1).max(100),
    timestamp: optionalText,
    client_id: optionalText,
    sub: optionalText,
    email: optionalText,
  })
  .loose();
export type ParsedWebhookEvent = z.output<typeof webhookEventSchema>;
