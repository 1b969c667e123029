import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { PORTAL_API_PREFIX } from '@concierge/contracts';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { insertCode, STRONG_PASSWORD, uniqueEmail } from '../test-support/account-fixtures';
import { type ProviderProxy, startProviderProxy } from '../test-support/provider-proxy';
import { sharedProvider } from '../test-support/shared-provider';
import { startTestServer } from '../test-support/test-server';
import { ATTR_REQUEST_ID, Tracing } from './tracing';

// The server's traces over real HTTP: a request continues the caller's W3C trace, its statements on
// the real PostgreSQL and its calls to the embedded provider (through a proxy that records the
// `traceparent` each carried) are its spans, and none of them holds what the visitor sent. The
// spans go to an in-memory exporter of this file's own Tracing: nothing global is registered.

const exporter = new InMemorySpanExporter();
let tracing: Tracing;
let proxy: ProviderProxy;
let server: Awaited<ReturnType<typeof startTestServer>>;
let base: string;
beforeAll(async () => {
  tracing = await Tracing.start({
    spanProcessor: new SimpleSpanProcessor({ exporter }),
    serviceName: 'concierge-server',
    serviceVersion: 'test',
  });
  proxy = await startProviderProxy((await sharedProvider()).url);
  server = await startTestServer({}, { provider: { url: proxy.url }, tracing });
  base = await server.app.listen({ host: '127.0.0.1', port: 0 });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await proxy?.close();
  await tracing?.shutdown();
});

/** A caller's W3C trace context: a fresh trace id and the caller's span id. */
function callerTrace() {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

/**
 * A POST whose body goes out only once the server has taken the request's head (`Expect:
 * 100-continue`), as with a slow client or a body of several packets: the body then arrives in the
 * socket's own events, after the first hooks ran, not with the head.
 */
function postAfterContinue(url: string, headers: Record<string, string>, body: string) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders }>((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', headers: { ...headers, expect: '100-continue' } });
    request.on('continue', () => request.end(body));
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
    });
    request.on('error', reject);
    request.flushHeaders();
  });
}

/**
 * The spans of one trace, once its server span has ended: that happens when the answer has gone out
 * (Fastify's onResponse), which may be just after the client has read it.
 */
async function spansOf(traceId: string) {
  const ofTrace = () => exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
  await vi.waitFor(() => expect(ofTrace().some((span) => span.kind === SpanKind.SERVER)).toBe(true));
  const spans = ofTrace();
  const others = spans.filter((span) => span.kind !== SpanKind.SERVER);
  return {
    spans,
    request: spans.find((span) => span.kind === SpanKind.SERVER) as ReadableSpan,
    statements: others.filter((span) => span.attributes['db.system.name'] === 'postgresql'),
    providerRequests: others.filter((span) => span.attributes['url.template'] !== undefined),
  };
}

/** Every span of the trace is the request's or a descendant of it: the context held throughout. */
function expectOneTree(spans: ReadableSpan[], request: ReadableSpan) {
  const parents = new Map(spans.map((span) => [span.spanContext().spanId, span.parentSpanContext?.spanId]));
  const requestId = request.spanContext().spanId;
  for (const span of spans) {
    let id: string | undefined = span.spanContext().spanId;
    while (id !== undefined && id !== requestId) id = parents.get(id);
    expect(id, `${span.name} is under the request's span`).toBe(requestId);
  }
}

/** What the spans say, all of it: names, attributes, events, statuses. */
function everythingIn(spans: ReadableSpan[]): string {
  return JSON.stringify(
    spans.map((span) => ({
      name: span.name,
      attributes: span.attributes,
      events: span.events,
      status: span.status,
    })),
  ).toLowerCase();
}

describe('traces', () => {
  it('a registration: the request continues the caller’s trace, with its statements and its provider calls, and carries the trace to the provider', async () => {
    const caller = callerTrace();
    const code = await insertCode(server.db);
    const email = uniqueEmail('traced');
    proxy.received.length = 0;
    const answer = await postAfterContinue(
      `${base}${PORTAL_API_PREFIX}/register-user`,
      { 'content-type': 'application/json', traceparent: caller.traceparent },
      JSON.stringify({
        email,
        password: STRONG_PASSWORD,
        registrationcode: code,
        clientid: 'property-portal-demo',
      }),
    );
    expect(answer.status).toBe(200);

    const { spans, request, statements, providerRequests } = await spansOf(caller.traceId);
    expect(request.parentSpanContext?.spanId).toBe(caller.spanId);
    expect(request.name).toBe(`POST ${PORTAL_API_PREFIX}/register-user`);
    expect(request.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': `${PORTAL_API_PREFIX}/register-user`,
      'http.response.status_code': 200,
      [ATTR_REQUEST_ID]: answer.headers['x-request-id'],
    });
    expectOneTree(spans, request);
    // The code is claimed in the database after the body came: the request's context held across it.
    expect(statements.map((span) => span.name)).toContain('UPDATE registration_codes');
    for (const statement of statements) expect(statement.attributes['db.query.text']).toMatch(/^\s*[a-z]/i);
    expect(providerRequests.map((span) => span.attributes['url.template'])).toContain('/users-srv/register');

    // Each request the provider received carried the span of its own request, in this trace.
    const sent = proxy.received.map((request) => request.traceparent);
    expect(sent.length).toBeGreaterThan(0);
    expect([...sent].sort()).toEqual(
      providerRequests.map((span) => `00-${caller.traceId}-${span.spanContext().spanId}-01`).sort(),
    );

    const text = everythingIn(spans);
    for (const secret of [email, code, STRONG_PASSWORD]) expect(text).not.toContain(secret.toLowerCase());
  });

  it('a page: the route pattern, never the URL with the code and the e-mail it carries', async () => {
    const caller = callerTrace();
    const code = await insertCode(server.db);
    const email = uniqueEmail('page');
    const inviteId = crypto.randomUUID();
    const query = new URLSearchParams({
      subdomain: 'demo',
      registrationcode: code,
      email,
      invite_id: inviteId,
    });
    const answer = await fetch(`${base}/register?${query}`, { headers: { traceparent: caller.traceparent } });
    expect(answer.status).toBe(200);

    const { spans, request, statements, providerRequests } = await spansOf(caller.traceId);
    expect(request.attributes).toMatchObject({ 'http.route': '/register', 'http.response.status_code': 200 });
    expectOneTree(spans, request);
    // The invitation looked up on arrival; a fresh sign-in request of the tenant's client.
    expect(statements.map((span) => span.name)).toContain('SELECT invitations');
    expect(providerRequests.map((span) => span.attributes['url.template'])).toContain(
      '/authz-srv/authrequest/authz/generate',
    );
    const text = everythingIn(spans);
    for (const secret of [email, code, inviteId]) expect(text).not.toContain(secret.toLowerCase());
  });
});
