import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** One delivery as it came. */
export interface WebhookDelivery {
  /** The JSON body; `{}` when it was none. */
  body: Record<string, unknown>;
  /** Where the expected API key came (a header or a query parameter, and its name); undefined without it. */
  key?: { placement: 'header' | 'query'; name: string };
  at: number;
}

export interface WebhookReceiver {
  /** Its local address (any path is taken). */
  url: string;
  deliveries: WebhookDelivery[];
  /** The first delivery (so far or within `timeoutMs`) that matches; undefined when none came. */
  waitFor(
    match: (delivery: WebhookDelivery) => boolean,
    timeoutMs: number,
  ): Promise<WebhookDelivery | undefined>;
  /**
   * Throws unless a request to `publicUrl` (the operator's tunnel) arrives here within 15 s: the
   * tenant can only reach the receiver through it.
   */
  expectReachableAt(publicUrl: string): Promise<void>;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 64 * 1024;

/**
 * A small webhook endpoint for the conformance suite on 127.0.0.1 (`port`: the one the operator's
 * tunnel forwards to; 0: any free one). It answers every request 200 at once, as the server does for
 * an event it took, so that no provider retries, and notes where the API key came: it looks for the
 * key's value in every header and query parameter, so the name the operator gave it does not matter.
 */
export async function startWebhookReceiver(options: {
  port?: number;
  apiKey: string;
}): Promise<WebhookReceiver> {
  const deliveries: WebhookDelivery[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://receiver.invalid');
      deliveries.push({ body: bodyOf(Buffer.concat(chunks).toString('utf8')), ...keyOf(), at: Date.now() });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');

      function keyOf(): Pick<WebhookDelivery, 'key'> {
        const header = Object.entries(request.headers).find(([, value]) => value === options.apiKey);
        if (header) return { key: { placement: 'header', name: header[0] } };
        const query = [...url.searchParams].find(([, value]) => value === options.apiKey);
        return query ? { key: { placement: 'query', name: query[0] } } : {};
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  async function waitFor(match: (delivery: WebhookDelivery) => boolean, timeoutMs: number) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = deliveries.find(match);
      if (found || Date.now() > deadline) return found;
      await sleep(100);
    }
  }
  return {
    url: `http://127.0.0.1:${port}/api/cidaas-webhook/events`,
    deliveries,
    waitFor,
    async expectReachableAt(publicUrl) {
      const nonce = randomUUID();
      const ping = fetch(publicUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ eventtype: 'CONFORMANCE_PING', nonce }),
        signal: AbortSignal.timeout(15_000),
      }).catch(() => undefined);
      const arrived = await waitFor((delivery) => delivery.body.nonce === nonce, 15_000);
      await ping;
      if (!arrived) {
        throw new Error(
          `${publicUrl} does not reach the webhook receiver on port ${port}: is the tunnel up?`,
        );
      }
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function bodyOf(text: string): Record<string, unknown> {
  try {
    const json: unknown = JSON.parse(text);
    return typeof json === 'object' && json !== null && !Array.isArray(json)
      ? (json as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
