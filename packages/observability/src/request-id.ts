import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The header a request's id comes in (from nginx's `$request_id`) and goes back out in. */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * What an id from outside may look like: nginx's 32 hex digits, a UUID, most tracing ids. Anything
 * else (a line break, a long or empty value) could forge or bloat log lines, so it is replaced.
 */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Fastify's `genReqId` for either app (docs/operations.md, "Logs"): the load balancer's id when it
 * sent a safe one, so that one id names the request in nginx's access log and in the instance's
 * line; otherwise a random UUID. Fastify's own counter (`req-1`, `req-2`, …) starts again in every
 * process, so the same id would name different requests on different instances.
 */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * Sends the request's id back, on the raw response: so it is there on every answer, also one a
 * route writes itself after hijacking the reply (the provider's oidc-provider) and an error's.
 */
export function returnRequestId(request: FastifyRequest, response: ServerResponse): void {
  response.setHeader(REQUEST_ID_HEADER, request.id);
}

/**
 * Every answer carries `X-Request-Id` with the id the request's log line has. Install it first, so
 * that a hook answering early (a guard's refusal) has it too; what the router refuses before any
 * hook runs gets it from the app's `frameworkErrors` handler (returnRequestId).
 */
export function installRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    returnRequestId(request, reply.raw);
  });
}
