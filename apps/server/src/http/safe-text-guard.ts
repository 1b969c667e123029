import {
  describeUnsafeRequestPart,
  failure,
  findUnsafeRequestPart,
  PORTAL_API_PREFIX,
} from '@concierge/contracts';
import { returnRequestId } from '@concierge/observability';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { setSecurityHeaders } from './security-headers';

/**
 * Issue "Hardening", point 1: a control character (NUL above all: PostgreSQL refuses it in text), a
 * lone surrogate, malformed percent-encoding or absurd nesting anywhere in a request's path, query or
 * body is a 400 before any route looks at it, so it changes nothing and cannot become a 5xx. Runs
 * after the body is parsed and after the routes' own onRequest guards (origin, API key). The account
 * API answers with its spec code for bad input, everything else with `invalid_request`. A route that
 * names the body fields it reads (`config.safeTextBodyFields`) has only those checked in its body.
 */
export function installSafeTextGuard(app: FastifyInstance) {
  app.addHook('preValidation', async function refuseUnsafeText(request: FastifyRequest, reply: FastifyReply) {
    const readFields = request.routeOptions.config.safeTextBodyFields;
    const where = findUnsafeRequestPart(
      readFields
        ? {
            url: request.url,
            params: request.params,
            query: request.query,
            body: only(request.body, readFields),
          }
        : request,
    );
    if (where === undefined) return;
    const code = request.url.startsWith(`${PORTAL_API_PREFIX}/`)
      ? 'missing_request_property'
      : 'invalid_request';
    request.log.info({ where }, 'unsafe text refused');
    return reply.status(400).send(failure(400, code, describeUnsafeRequestPart(where)));
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The body fields a route reads, for a body whose other fields may hold anything: the provider's
     * events, which carry fields the server ignores (cidaas's user agent, descriptions) and might carry
     * a line break there. Refusing such an event would refuse it for ever — the provider retries, the
     * server refuses again. Only these fields are checked; the path and query are checked in full.
     */
    safeTextBodyFields?: readonly string[];
  }
}

/** The named own fields of an object body; any other body as it is (checked in full). */
function only(body: unknown, fields: readonly string[]): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  return Object.fromEntries(
    fields
      .filter((field) => Object.hasOwn(body, field))
      .map((field) => [field, (body as Record<string, unknown>)[field]]),
  );
}

/**
 * Fastify's `frameworkErrors` option: what the router refuses before any hook runs (a path parameter
 * whose percent-encoding is malformed, one too long) is answered in the envelope too, with the security
 * headers of every other answer, without echoing the path as Fastify's own answer does.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // No hook ran for this request: the security headers and the request id come from here.
  setSecurityHeaders(request.server, reply.raw);
  returnRequestId(request, reply.raw);
  const status = error.statusCode ?? 400;
  const where = error.code === 'FST_ERR_BAD_URL' ? 'path (malformed percent-encoding)' : undefined;
  if (status >= 500) request.log.error({ err: error }, 'router error');
  return reply
    .status(status)
    .send(
      failure(
        status,
        status >= 500 ? 'internal_error' : 'invalid_request',
        where ? describeUnsafeRequestPart(where) : 'The request path is not accepted.',
      ),
    );
}
