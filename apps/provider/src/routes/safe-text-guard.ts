import { IncomingMessage } from 'node:http';
import {
  describeUnsafeRequestPart,
  findUnsafeRequestPart,
  findUnsafeText,
  isUnsafeText,
} from '@concierge/contracts';
import { returnRequestId } from '@concierge/observability';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CIDAAS_CODES } from './cidaas-codes';
import { refuse } from './envelope-errors';
import { setSecurityHeaders } from './security-headers';

/** oidc-provider's own body limit; the forwarded endpoints refuse more anyway. */
const UNPARSED_BODY_LIMIT = 56 * 1024;

/**
 * Issue "Hardening", point 1: a control character (NUL above all: PostgreSQL refuses it in text), a
 * lone surrogate, malformed percent-encoding or absurd nesting anywhere in a request's path, query or
 * body is a 400 ValidationException before any route looks at it, so it changes nothing and cannot
 * become a 5xx.
 *
 * The OIDC endpoints leave their body unparsed for oidc-provider (oidc-forward.ts): a form or JSON
 * body there is read here, checked, and handed on as a fresh stream with the same bytes and headers.
 */
export function installSafeTextGuard(app: FastifyInstance) {
  app.addHook('preValidation', async function refuseUnsafeText(request: FastifyRequest, reply: FastifyReply) {
    let where = findUnsafeRequestPart(request);
    if (where === undefined && request.body === undefined) {
      const unparsed = await inspectUnparsedBody(request);
      if (unparsed === 'too_large') {
        return refuse(
          reply,
          413,
          CIDAAS_CODES.MALFORMED_REQUEST,
          'The body is too large.',
          'RequestException',
        );
      }
      where = unparsed;
    }
    if (where === undefined) return;
    request.log.info({ where }, 'unsafe text refused');
    return refuse(
      reply,
      400,
      CIDAAS_CODES.MALFORMED_REQUEST,
      describeUnsafeRequestPart(where),
      'ValidationException',
    );
  });
}

/**
 * Fastify's `frameworkErrors` option: what the router refuses before any hook runs (a path parameter
 * whose percent-encoding is malformed, one too long) is answered in the envelope too, with the security
 * headers of every other answer, without echoing the path as Fastify's own answer does.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // No hook ran for this request: the security headers and the request id come from here.
  setSecurityHeaders(reply.raw, request.url);
  returnRequestId(request, reply.raw);
  const status = error.statusCode ?? 400;
  if (status >= 500) {
    request.log.error({ err: error }, 'router error');
    return refuse(reply, 500, 500, 'An unexpected error occurred.', 'InternalException');
  }
  const message =
    error.code === 'FST_ERR_BAD_URL'
      ? describeUnsafeRequestPart('path (malformed percent-encoding)')
      : 'The request path is not accepted.';
  return refuse(reply, status, CIDAAS_CODES.MALFORMED_REQUEST, message, 'ValidationException');
}

type MediaKind = 'form' | 'json';

function mediaKindOf(request: FastifyRequest): MediaKind | undefined {
  const mediaType = (request.headers['content-type'] ?? '').split(';', 1)[0]?.trim().toLowerCase();
  if (mediaType === 'application/x-www-form-urlencoded') return 'form';
  if (mediaType === 'application/json') return 'json';
  return undefined;
}

function hasBody(raw: IncomingMessage): boolean {
  const length = raw.headers['content-length'];
  return (length !== undefined && length !== '0') || raw.headers['transfer-encoding'] !== undefined;
}

/**
 * A form or JSON body no content-type parser read (the OIDC endpoints'): checked like a parsed one;
 * the request's stream is replaced by one that replays the same bytes. Bodies that do not parse are
 * left to oidc-provider, which refuses them itself.
 */
async function inspectUnparsedBody(request: FastifyRequest): Promise<string | 'too_large' | undefined> {
  const raw = request.raw;
  const kind = mediaKindOf(request);
  if (!kind || !hasBody(raw) || !raw.readable || raw.readableDidRead) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    // Not destroyed on an early return: the 413 must still reach the client.
    for await (const chunk of raw.iterator({ destroyOnReturn: false })) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += buffer.length;
      if (size > UNPARSED_BODY_LIMIT) return 'too_large';
      chunks.push(buffer);
    }
  } catch {
    return 'body (unreadable)';
  }
  const bytes = Buffer.concat(chunks);
  request.raw = replay(raw, bytes);
  const text = bytes.toString('utf8');
  if (kind === 'form') return findUnsafeFormField(text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  return findUnsafeText(parsed, 'body');
}

/** The first field of a form body that is not safe text, or its malformed percent-encoding. */
function findUnsafeFormField(text: string): string | undefined {
  const decode = (value: string) => decodeURIComponent(value.replace(/\+/g, ' '));
  for (const part of text.split('&')) {
    if (part === '') continue;
    const separator = part.indexOf('=');
    let name: string;
    let value: string;
    try {
      name = decode(separator === -1 ? part : part.slice(0, separator));
      value = separator === -1 ? '' : decode(part.slice(separator + 1));
    } catch {
      return 'body (malformed percent-encoding)';
    }
    if (isUnsafeText(name)) return 'body (a field name)';
    if (isUnsafeText(value)) return `body.${name}`;
  }
  return undefined;
}

/** A stand-in request carrying the same bytes; method, URL, headers and socket are the original's. */
function replay(raw: IncomingMessage, bytes: Buffer): IncomingMessage {
  const copy = new IncomingMessage(raw.socket);
  copy.method = raw.method;
  copy.url = raw.url;
  copy.httpVersion = raw.httpVersion;
  copy.httpVersionMajor = raw.httpVersionMajor;
  copy.httpVersionMinor = raw.httpVersionMinor;
  const { 'transfer-encoding': _chunked, ...kept } = raw.headers;
  copy.headers = { ...kept, 'content-length': String(bytes.length) };
  copy.push(bytes);
  copy.push(null);
  // Marks the body as fully received: an incomplete IncomingMessage destroys its socket when it ends.
  copy.complete = true;
  return copy;
}
