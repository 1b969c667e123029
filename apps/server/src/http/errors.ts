import { randomUUID } from 'node:crypto';
import { failure, PROVIDER_UNREACHABLE } from '@concierge/contracts';
import { loggableError } from '@concierge/database';
import type { FastifyError, FastifyInstance } from 'fastify';

/** An error with a code from the spec's catalogue, answered as the cidaas-style envelope. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The identity provider did not answer (unreachable, timed out, a 5xx, or the circuit breaker holds
 * calls back): 503 `provider_unreachable`, for the portal's "the sign-in service cannot be reached,
 * try again in a few minutes" in the visitor's language. `message` says what was not done.
 */
export function providerUnreachable(message: string): AppError {
  return new AppError(503, PROVIDER_UNREACHABLE, message);
}

/**
 * One error handler: AppErrors and Fastify's own 4xx (bad JSON, wrong content type, too large) keep
 * their status and say what was wrong; anything else is logged with a reference id and answered
 * with a generic message carrying the same id.
 */
export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.status).send(failure(error.status, error.code, error.message));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send(failure(status, error.code ?? 'bad_request', error.message));
    }
    const referenceNumber = randomUUID();
    // A database error quotes row values (e-mails, tokens): its SQLSTATE and this number must do.
    request.log.error({ err: loggableError(error), referenceNumber }, 'unhandled error');
    const body = failure(500, 'internal_error', 'An unexpected error occurred.');
    if (!body.success) body.error.referenceNumber = referenceNumber;
    return reply.status(500).send(body);
  });
}
