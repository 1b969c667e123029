import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Events with this e-mail, in arrival order. */
  eventsFor(email: string): Record<string, unknown>[];
  /** Waits until `count` events for the e-mail have arrived. */
  waitFor(email: string, count: number, timeoutMs?: number): Promise<Record<string, unknown>[]>;
  /** Waits for the first event of this type for the e-mail. */
  waitForType(email: string, eventtype: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Requests that have arrived so far, answered or not. */
  arrivals(): number;
  /** Requests held unanswered (isHolding) whose sender still waits for the answer. */
  waiting(): number;
  /** Answers the held requests, and every later one at once. */
  release(): void;
  close(): Promise<void>;
}

export interface ReceiverOptions {
  /** Listen on this port (to bring a receiver "back up" where the provider already sends). */
  port?: number;
  /** Holds every request unanswered until release(), as a server that is slow to answer. */
  isHolding?: boolean;
}

/** The server's webhook endpoint as a tiny recorder on 127.0.0.1, answering 200 to everything. */
export async function startWebhookReceiver(options: ReceiverOptions = {}): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let arrivals = 0;
  const held = new Set<ServerResponse>();
  let release = () => {};
  const released = options.isHolding
    ? new Promise<void>((resolve) => {
        release = resolve;
      })
    : Promise.resolve();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      arrivals += 1;
      held.add(response);
      // Also when the sender gives up waiting and closes the connection.
      response.on('close', () => held.delete(response));
      void released.then(() => {
        received.push({
          headers: request.headers,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
        });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}');
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('receiver has no address');
  const eventsFor = (email: string) =>
    received.map((entry) => entry.body).filter((body) => body.email === email);
  return {
    url: `http://127.0.0.1:${address.port}/api/cidaas-webhook/events`,
    received,
    eventsFor,
    async waitFor(email, count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (eventsFor(email).length < count) {
        if (Date.now() > deadline) {
          throw new Error(`only ${eventsFor(email).length} of ${count} events for ${email} arrived`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return eventsFor(email);
    },
    async waitForType(email, eventtype, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const event = eventsFor(email).find((body) => body.eventtype === eventtype);
        if (event) return event;
        if (Date.now() > deadline) throw new Error(`no ${eventtype} event for ${email} arrived`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    arrivals: () => arrivals,
    waiting: () => (options.isHolding ? held.size : 0),
    release: () => release(),
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
