import { randomUUID } from 'node:crypto';
import {
  type AdminErrorCode,
  failure,
  type PortalCallCode,
  type PortalCallName,
  type PortalErrorCode,
  PROVIDER_UNREACHABLE,
  SERVICE_UNAVAILABLE,
} from '@concierge/contracts';
import { isDatabaseUnavailable, loggableError } from '@concierge/database';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Every code the server answers with: a portal call's — each with a message on its page (contracts'
 * PORTAL_CALLS); a code the portal cannot translate fails the typecheck — the admin API's, and the
 * HTTP layer's own for input no call accepts.
 */
export type ServerErrorCode = PortalErrorCode | AdminErrorCode | 'invalid_request' | 'too_many_requests';

/**
 * An error with a code from the catalogue, answered as the cidaas-style envelope; with
 * `retryAfterSeconds` also a `Retry-After` header (a 429 says how long its limit holds).
 */
export class AppError extends Error {
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly status: number,
    readonly code: ServerErrorCode,
    message: string,
    options: { retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/**
 * A refusal of one portal call: its code must be one that call's page has a message for (contracts'
 * PORTAL_CALLS), so the typecheck fails for a code the tenant would see only as a general error.
 */
export function callError<N extends PortalCallName>(
  _call: N,
  status: number,
  code: PortalCallCode<N>,
  message: string,
): AppError {
  return new AppError(status, code, message);
}

/**
 * 429 `too_many_requests` with the real wait: the seconds until the refusing limit's window ends,
 * answered as `Retry-After`, which the portal reads to say "in N minutes" (issue 25).
 */
export function tooManyRequests(
  retryAfterSeconds: number,
  message = 'Too many attempts. Please try again later.',
): AppError {
  return new AppError(429, 'too_many_requests', message, { retryAfterSeconds });
}

/**
 * The identity provider did not answer (unreachable, timed out, a 5xx, or the circuit breaker holds
 * calls back): 503 `provider_unreachable`, for the portal's "the sign-in service cannot be reached,
 * try again later" in the visitor's language: how long the provider stays away, nothing here knows.
 * `message` says what was not done.
 */
export function providerUnreachable(message: string): AppError {
  return new AppError(503, PROVIDER_UNREACHABLE, message);
}

/** How long a client is asked to wait when the database is away (`Retry-After`, seconds). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 30;

export interface ErrorHandlerOptions {
  /**
   * The page for a browser whose page could not be rendered: the database is away (503), or the
   * rendering failed (500, with its reference number). Without one (or for any other request) the
   * answer is the JSON envelope.
   */
  errorPage?: {
    wanted(request: FastifyRequest): boolean;
    render(request: FastifyRequest, kind: 'unavailable' | 'failed', referenceNumber?: string): string;
  };
}

/**
 * One error handler: AppErrors and Fastify's own 4xx (bad JSON, wrong content type, too large) keep
 * their status and say what was wrong; a database that cannot be reached is 503 "try again later"
 * (`service_unavailable`, or the branded page for a browser), logged as a warning, since nothing is
 * wrong with this instance or the request; anything else is logged with a reference id and answered
 * with a generic message carrying the same id (a browser asking for a page: the branded page).
 */
export function installErrorHandler(app: FastifyInstance, options: ErrorHandlerOptions = {}) {
  /** The branded page, for a browser that asked for one; none if even that cannot be made. */
  function pageFor(request: FastifyRequest, kind: 'unavailable' | 'failed', referenceNumber?: string) {
    if (!options.errorPage?.wanted(request)) return undefined;
    try {
      return options.errorPage.render(request, kind, referenceNumber);
    } catch (error) {
      request.log.error({ err: loggableError(error) }, 'the error page could not be made either');
      return undefined;
    }
  }

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.retryAfterSeconds !== undefined) {
        reply.header('retry-after', String(Math.max(1, Math.ceil(error.retryAfterSeconds))));
      }
      return reply.status(error.status).send(failure(error.status, error.code, error.message));
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: loggableError(error) }, 'database unavailable');
      reply
        .status(503)
        .header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS))
        .header('cache-control', 'no-store');
      const page = pageFor(request, 'unavailable');
      if (page) return reply.header('content-type', 'text/html; charset=utf-8').send(page);
      return reply.send(
        failure(503, SERVICE_UNAVAILABLE, 'The service is unavailable for a moment. Try again later.'),
      );
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send(failure(status, error.code ?? 'bad_request', error.message));
    }
    const referenceNumber = randomUUID();
    // A database error quotes row values (e-mails, tokens): its SQLSTATE and this number must do.
    request.log.error({ err: loggableError(error), referenceNumber }, 'unhandled error');
    const page = pageFor(request, 'failed', referenceNumber);
    if (page) {
      return reply
        .status(500)
        .header('cache-control', 'no-store')
        .header('content-type', 'text/html; charset=utf-8')
        .send(page);
    }
    const body = failure(500, 'internal_error', 'An unexpected error occurred.');
    if (!body.success) body.error.referenceNumber = referenceNumber;
    return reply.status(500).send(body);
  });
}
