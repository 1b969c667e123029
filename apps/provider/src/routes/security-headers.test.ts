import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECK_SESSION_PATH } from '../oidc/session-management';
import { type ProviderHarness, RP_URL, startProvider } from '../test-support/provider-harness';

let harness: ProviderHarness;
beforeAll(async () => {
  harness = await startProvider();
});
afterAll(() => harness.close());

describe('security headers of the provider', () => {
  // oidc-provider's own pages (sign-out, its 404s), a Fastify route and a JSON refusal alike.
  it.each([
    ['the sign-out page', '/session/end_session'],
    ['the signed-out page', '/session/end_session/success'],
    ['an unknown path', '/no-such-page'],
    ['an unknown path under a hosted route', '/login-srv/nothing-here'],
    ['the discovery document', '/.well-known/openid-configuration'],
    ['the health check', '/healthz'],
  ])('sends them on %s', async (_name, path) => {
    const response = await fetch(`${harness.baseUrl}${path}`, { redirect: 'manual' });
    await response.arrayBuffer();
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('permissions-policy')).toContain('camera=()');
    expect(response.headers.get('permissions-policy')).toContain('geolocation=()');
  });

  it('still lets the relying parties frame the session check page', async () => {
    const response = await fetch(`${harness.baseUrl}${CHECK_SESSION_PATH}`);
    await response.arrayBuffer();
    expect(response.headers.get('x-frame-options')).toBeNull();
    expect(response.headers.get('content-security-policy')).toContain(`frame-ancestors ${RP_URL}`);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('permissions-policy')).toContain('camera=()');
  });
});

/** One request over a plain socket: the exact bytes go out, whatever a client library would refuse. */
function rawExchange(
  baseUrl: string,
  request: string,
): Promise<{ status: number; headers: Headers; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: hostname, port: Number(port) }, () => socket.end(request));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = new Headers();
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}

function expectSecurityHeaders(headers: Headers) {
  expect(headers.get('x-frame-options')).toBe('DENY');
  expect(headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(headers.get('referrer-policy')).toBe('no-referrer');
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('permissions-policy')).toContain('camera=()');
}

function expectEnvelope(body: string, status: number) {
  const parsed = JSON.parse(body);
  expect(parsed).toMatchObject({ success: false, status, error: { status } });
  // Fastify's own answers echo the path; the envelope names what was wrong without it.
  expect(body).not.toContain('%E0%A4%A');
}

/**
 * Issue "Hardening": what Fastify answers before any hook runs (the router's frameworkErrors, Node's
 * clientError) or from its content-type parsers carries the same headers and the cidaas envelope.
 */
describe('security headers on the framework’s own errors', () => {
  const json = { 'content-type': 'application/json' };
  it.each([
    ['malformed percent-encoding in the path', 'GET', '/%E0%A4%A', {}, undefined, 400],
    ['malformed percent-encoding in a path parameter', 'GET', '/public/%E0%A4%A', {}, undefined, 400],
    ['invalid JSON', 'POST', '/login-srv/login', json, '{not json', 400],
    [
      'an unsupported media type',
      'POST',
      '/login-srv/login',
      { 'content-type': 'application/xml' },
      '<a/>',
      415,
    ],
    ['a body above the limit', 'POST', '/login-srv/login', json, `{"a":"${'x'.repeat(1_100_000)}"}`, 413],
    [
      'a body above the limit at an OIDC endpoint',
      'POST',
      '/token',
      json,
      `{"a":"${'x'.repeat(60_000)}"}`,
      413,
    ],
  ])('sends them with %s', async (_name, method, path, headers, body, status) => {
    const response = await fetch(`${harness.baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    expect(response.status).toBe(status);
    expectSecurityHeaders(response.headers);
    expectEnvelope(text, status);
  });

  it('sends them with a header section larger than Node takes (431)', async () => {
    const response = await rawExchange(
      harness.baseUrl,
      `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(response.status).toBe(431);
    expectSecurityHeaders(response.headers);
    expectEnvelope(response.body, 431);
  });

  it('sends them with a request Node cannot parse (400)', async () => {
    const response = await rawExchange(harness.baseUrl, 'GET /healthz HTTP/1.1\r\nHost x\r\n\r\n');
    expect(response.status).toBe(400);
    expectSecurityHeaders(response.headers);
    expectEnvelope(response.body, 400);
  });
});
