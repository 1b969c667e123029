import { IncomingMessage } from 'node:http';
import type { ClientDirectory } from './clients';
import { CIDAAS_ROUTES } from './configuration';

// Client-authenticated endpoints where cidaas is more lenient than oidc-provider.
const CLIENT_AUTH_PATHS = new Set<string>([
  CIDAAS_ROUTES.token,
  CIDAAS_ROUTES.introspection,
  CIDAAS_ROUTES.revocation,
]);
const BODY_LIMIT = 56 * 1024; // oidc-provider's own limit

export type NormalisedRequest = { request: IncomingMessage } | { error: string; description: string };

/**
 * Makes a cidaas-style request acceptable to oidc-provider before it sees it:
 * - a JSON body (cidaas takes one) becomes a form body;
 * - HTTP Basic credentials of a client registered with client_secret_post move into the body, so such
 *   a client may use either method (oidc-provider allows exactly the registered one).
 * Anything else passes through untouched, stream and all.
 */
export async function normaliseClientAuthRequest(
  raw: IncomingMessage,
  clients: ClientDirectory,
): Promise<NormalisedRequest> {
  const path = (raw.url ?? '').split('?', 1)[0] ?? '';
  if (raw.method !== 'POST' || !CLIENT_AUTH_PATHS.has(path)) return { request: raw };
  const mediaType = (raw.headers['content-type'] ?? '').split(';', 1)[0]?.trim().toLowerCase();
  const isJson = mediaType === 'application/json';
  const isForm = mediaType === 'application/x-www-form-urlencoded';
  const basic = readBasicCredentials(raw.headers.authorization);
  const isPostClientUsingBasic =
    basic !== undefined && clients.get(basic.clientId)?.token_endpoint_auth_method === 'client_secret_post';
  if (!isJson && !(isForm && isPostClientUsingBasic)) return { request: raw };

  let text: string;
  try {
    text = await readBody(raw);
  } catch {
    return { error: 'invalid_request', description: 'the request body is too large or unreadable' };
  }
  let params: URLSearchParams;
  if (isJson) {
    const converted = jsonToParams(text);
    if (!converted) return { error: 'invalid_request', description: 'the JSON body must be an object' };
    params = converted;
  } else {
    params = new URLSearchParams(text);
  }
  const headers = { ...raw.headers };
  if (basic && isPostClientUsingBasic && !params.has('client_id') && !params.has('client_secret')) {
    params.set('client_id', basic.clientId);
    params.set('client_secret', basic.clientSecret);
    delete headers.authorization;
  }
  return { request: replayWithForm(raw, headers, params.toString()) };
}

function readBasicCredentials(
  header: string | undefined,
): { clientId: string; clientSecret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=._~-]+)\s*$/i.exec(header ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  if (separator < 1) return undefined;
  try {
    // RFC 6749 §2.3.1: both parts are form-urlencoded before encoding.
    const decode = (value: string) => decodeURIComponent(value.replace(/\+/g, ' '));
    return {
      clientId: decode(decoded.slice(0, separator)),
      clientSecret: decode(decoded.slice(separator + 1)),
    };
  } catch {
    return undefined;
  }
}

async function readBody(raw: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of raw) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Scalars become strings, objects (claims, authorization_details) JSON; null and absent are left out. */
function jsonToParams(text: string): URLSearchParams | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(body)) {
    if (value === null || value === undefined) continue;
    params.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  return params;
}

/** A stand-in request with the new body; method, URL, headers and socket are the original's. */
function replayWithForm(
  raw: IncomingMessage,
  headers: IncomingMessage['headers'],
  form: string,
): IncomingMessage {
  const body = Buffer.from(form, 'utf8');
  const replay = new IncomingMessage(raw.socket);
  replay.method = raw.method;
  replay.url = raw.url;
  replay.httpVersion = raw.httpVersion;
  replay.httpVersionMajor = raw.httpVersionMajor;
  replay.httpVersionMinor = raw.httpVersionMinor;
  const { 'transfer-encoding': _chunked, ...kept } = headers;
  replay.headers = {
    ...kept,
    'content-type': 'application/x-www-form-urlencoded',
    'content-length': String(body.length),
  };
  replay.push(body);
  replay.push(null);
  // Marks the body as fully received: an incomplete IncomingMessage destroys its socket when it ends.
  replay.complete = true;
  return replay;
}
