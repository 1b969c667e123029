import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake does with a request other than the token's. */
export type FakeBehaviour =
  /** An envelope answer, 200. */
  | { kind: 'answer'; data?: unknown }
  /** HTTP 503 with an HTML body, as a load balancer answers for a provider that is down. */
  | { kind: '503' }
  /** No answer at all until `release()` (or close): a provider that hangs. */
  | { kind: 'hang' };

export interface FakeProvider {
  url: string;
  behaviour: FakeBehaviour;
  /** Behaviours of single requests (`PATCH /user-srv/users/sub-1/status`), over `behaviour`. */
  routes: Map<string, FakeBehaviour>;
  /** Every request it received but the token's, as `METHOD /path`. */
  requests: string[];
  /** How many requests to this `METHOD /path` it received. */
  count(request: string): number;
  /** Answers the hanging requests (with the behaviour of then) and stops hanging. */
  release(): void;
  close(): Promise<void>;
}

/**
 * A provider that answers the token request and, for everything else, what the test says: for the
 * tests of timeouts, retries and the circuit breaker, which count what reached it.
 */
export async function startFakeProvider(
  behaviour: FakeBehaviour = { kind: 'answer' },
): Promise<FakeProvider> {
  const hanging: ServerResponse[] = [];
  const answer = (response: ServerResponse, behaviour: FakeBehaviour) => {
    if (behaviour.kind === '503') {
      response.writeHead(503, { 'content-type': 'text/html' }).end('<html>Service Unavailable</html>');
      return;
    }
    const data = behaviour.kind === 'answer' ? (behaviour.data ?? {}) : {};
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ success: true, status: 200, data }));
  };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on('end', () => {
      const path = request.url?.split('?', 1)[0] ?? '';
      if (request.method === 'POST' && path === '/token-srv/token') {
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ access_token: 'fake-token', expires_in: 3600 }));
        return;
      }
      const name = `${request.method} ${path}`;
      fake.requests.push(name);
      const behaviour = fake.routes.get(name) ?? fake.behaviour;
      if (behaviour.kind === 'hang') hanging.push(response);
      else answer(response, behaviour);
    });
  });
  const fake: FakeProvider = {
    url: '',
    behaviour,
    routes: new Map(),
    requests: [],
    count: (wanted) => fake.requests.filter((request) => request === wanted).length,
    release() {
      if (fake.behaviour.kind === 'hang') fake.behaviour = { kind: 'answer' };
      for (const response of hanging.splice(0)) answer(response, fake.behaviour);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
