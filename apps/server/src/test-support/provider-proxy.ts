import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';

/** What the proxy does with `POST /users-srv/register`. */
export type RegisterBehaviour =
  | { kind: 'forward' }
  /** The provider creates the user, but its answer never reaches the client: an unknown outcome. */
  | { kind: 'forward-then-hang' }
  /** The request never reaches the provider, and no answer comes either. */
  | { kind: 'drop' }
  /** The proxy answers itself, without asking the provider. */
  | { kind: 'answer'; status: number; body: unknown };

export interface ProviderProxy {
  url: string;
  register: RegisterBehaviour;
  /** How many admin look-ups still answer "not found" for every e-mail, as if a user appeared just after. */
  hiddenLookUps: number;
  /** Breaks every connection at once: the provider cannot be reached. */
  isDown: boolean;
  /** Every request that came in, in order: its method, its path and its W3C `traceparent`, if any. */
  received: { method: string; path: string; traceparent: string | undefined }[];
  /** Resolves once the provider has answered this many register requests that the proxy withheld. */
  withheldAnswers(count?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A tiny HTTP proxy in front of the embedded provider, for the outcomes a real network produces:
 * timeouts after the provider acted, requests lost before it did, refusals.
 */
export async function startProviderProxy(targetUrl: string): Promise<ProviderProxy> {
  const target = new URL(targetUrl);
  let withheld = 0;
  const proxy: ProviderProxy = {
    url: '',
    register: { kind: 'forward' },
    hiddenLookUps: 0,
    isDown: false,
    received: [],
    async withheldAnswers(count = 1) {
      const deadline = Date.now() + 10_000;
      while (withheld < count) {
        if (Date.now() > deadline) throw new Error(`only ${withheld} register answers withheld`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  function forward(
    request: IncomingMessage,
    body: Buffer,
    onAnswer: (status: number, headers: IncomingMessage['headers'], answer: Buffer) => void,
  ) {
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: request.url,
        method: request.method,
        headers: { ...request.headers, host: target.host },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          onAnswer(response.statusCode ?? 502, response.headers, Buffer.concat(chunks)),
        );
      },
    );
    upstream.on('error', () => onAnswer(502, {}, Buffer.from('{}')));
    upstream.end(body);
  }

  function reply(
    response: ServerResponse,
    status: number,
    headers: IncomingMessage['headers'],
    answer: Buffer,
  ) {
    const { 'transfer-encoding': _chunked, connection: _connection, ...rest } = headers;
    response.writeHead(status, { ...rest, 'content-length': String(answer.length) });
    response.end(answer);
  }

  const server = createServer((request, response) => {
    const { traceparent } = request.headers;
    proxy.received.push({
      method: request.method ?? '',
      path: request.url?.split('?', 1)[0] ?? '',
      traceparent: typeof traceparent === 'string' ? traceparent : undefined,
    });
    if (proxy.isDown) {
      request.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = request.url?.split('?', 1)[0];
      if (request.method === 'POST' && path === '/users-srv/register') {
        const behaviour = proxy.register;
        if (behaviour.kind === 'drop') return;
        if (behaviour.kind === 'answer') {
          return reply(
            response,
            behaviour.status,
            { 'content-type': 'application/json' },
            Buffer.from(JSON.stringify(behaviour.body)),
          );
        }
        if (behaviour.kind === 'forward-then-hang') {
          return forward(request, body, () => {
            withheld += 1;
          });
        }
      }
      if (proxy.hiddenLookUps > 0 && request.method === 'POST' && path === '/useractions-srv/userexistence') {
        proxy.hiddenLookUps -= 1;
        const notFound = { success: false, status: 404, error: { code: 10301, error: 'user not found' } };
        return reply(
          response,
          404,
          { 'content-type': 'application/json' },
          Buffer.from(JSON.stringify(notFound)),
        );
      }
      forward(request, body, (status, headers, answer) => reply(response, status, headers, answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('the proxy has no address');
  proxy.url = `http://127.0.0.1:${address.port}`;
  return proxy;
}
