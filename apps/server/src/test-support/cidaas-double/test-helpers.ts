import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { type CidaasDouble, type CidaasDoubleOptions, startCidaasDouble } from './cidaas-double';

// Shared by the double's own tests only: they talk to it over HTTP, as the server does.

export const ADMIN = { clientId: 'concierge-server', clientSecret: 'admin-secret' };
export const PORTAL = {
  clientId: 'portal',
  hostedPageUrl: 'http://portal.test/login?subdomain=demo',
  redirectUris: ['http://portal.test/callback'],
};
export const OTHER = {
  clientId: 'other',
  hostedPageUrl: 'http://other.test/sign-in',
  redirectUris: ['http://other.test/cb'],
};

export function startDouble(options: Partial<CidaasDoubleOptions> = {}): Promise<CidaasDouble> {
  return startCidaasDouble({ clientCredentials: ADMIN, clients: [PORTAL, OTHER], ...options });
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back
  json: any;
}

export async function send(double: CidaasDouble, method: string, path: string, init: RequestInit = {}) {
  const response = await fetch(`${double.url}${path}`, { method, redirect: 'manual', ...init });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json } as Answer;
}

export function jsonInit(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

export function formInit(fields: Record<string, string>, headers: Record<string, string> = {}): RequestInit {
  return {
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  };
}

export async function adminToken(double: CidaasDouble): Promise<string> {
  const fields = {
    grant_type: 'client_credentials',
    client_id: ADMIN.clientId,
    client_secret: ADMIN.clientSecret,
  };
  const answer = await send(double, 'POST', '/token-srv/token', formInit(fields));
  return answer.json.access_token as string;
}

/** An admin call with a fresh bearer token and a JSON body. */
export async function admin(
  double: CidaasDouble,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const authorization = `Bearer ${await adminToken(double)}`;
  const init =
    body === undefined
      ? { headers: { authorization, ...headers } }
      : jsonInit(body, { authorization, ...headers });
  return send(double, method, path, init);
}

export async function newRequestId(double: CidaasDouble, client = PORTAL): Promise<string> {
  const body = {
    client_id: client.clientId,
    redirect_uri: client.redirectUris[0],
    response_type: 'code',
    scope: 'openid',
    nonce: 'n',
  };
  const answer = await send(double, 'POST', '/authz-srv/authrequest/authz/generate', jsonInit(body));
  return answer.json.data.requestId as string;
}

/** Posts the hosted page's login form; answers with the redirect target. */
export async function login(double: CidaasDouble, username: string, password: string, requestId: string) {
  const answer = await send(
    double,
    'POST',
    '/login-srv/login',
    formInit({ username, password, requestId, username_type: 'email' }),
  );
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get('location') ?? '');
}

/** The recorded error envelope, field by field. */
export function expectRefusal(answer: Answer, status: number, code: number, type?: string): void {
  expect(answer.status).toBe(status);
  expect(answer.json).toMatchObject({ success: false, status, error: { code, moreInfo: '', status } });
  expect(Number.isInteger(answer.json.error.code)).toBe(true);
  expect(answer.json.error.type).toEqual(type ?? expect.stringMatching(/Exception$/));
  expect(answer.json.error.referenceNumber).toEqual(expect.any(String));
  expect(answer.json.error.error).toEqual(expect.any(String));
}

/** The recorded 401 body: no envelope (envelope.ts accessDenied). */
export function expectAccessDenied(answer: Answer): void {
  expect(answer.status).toBe(401);
  expect(answer.json).toEqual({ error: 'Access denied for this resource', refnumber: expect.any(String) });
}

/** The three "user not found" variants, for tests that go through all of them. */
export const NOT_FOUND_VARIANTS = ['204', '417', '404'] as const;

export function expectUserNotFound(answer: Answer, variant: (typeof NOT_FOUND_VARIANTS)[number]): void {
  if (variant === '204') {
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
  } else expectRefusal(answer, Number(variant), 10301, 'UsersException');
}

export interface Receiver {
  url: string;
  deliveries: Array<{ url: URL; headers: IncomingHttpHeaders; body: Record<string, unknown>; at: number }>;
  close(): Promise<void>;
}

/** A webhook endpoint; answers the given statuses in turn, then 200. */
export async function startReceiver(statuses: number[] = []): Promise<Receiver> {
  const deliveries: Receiver['deliveries'] = [];
  const server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => {
      raw += chunk.toString();
    });
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://receiver.invalid');
      deliveries.push({ url, headers: request.headers, body: JSON.parse(raw), at: Date.now() });
      response.writeHead(statuses.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/cidaas-webhook/events`,
    deliveries,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
