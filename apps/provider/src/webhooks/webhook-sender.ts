import type { WebhookEvent } from '@concierge/contracts';
import type { ProviderConfig } from '../config';
import { DeliveryError } from '../outbox/outbox-relay';

const REQUEST_TIMEOUT_MS = 5000;

/**
 * POSTs one event to the server's webhook endpoint with the API key header (provider-protocol.md,
 * "Webhooks"). Any 2xx is delivered; anything else, a timeout or no connection is a failure to retry.
 * Redirects are not followed: the key must not travel to another address.
 */
export function createWebhookSender(webhook: ProviderConfig['webhook']) {
  return async function sendWebhookEvent(event: WebhookEvent): Promise<void> {
    let response: Response;
    try {
      response = await fetch(webhook.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [webhook.apiKeyHeader]: webhook.apiKey },
        body: JSON.stringify(event),
        redirect: 'manual',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      if (error instanceof Error && error.name === 'TimeoutError') {
        throw new DeliveryError(`no answer within ${REQUEST_TIMEOUT_MS} ms`);
      }
      throw error;
    }
    // The body is not needed; reading it frees the connection.
    await response.arrayBuffer().catch(() => undefined);
    if (response.status < 200 || response.status >= 300) {
      throw new DeliveryError(`webhook answered HTTP ${response.status}`);
    }
  };
}
