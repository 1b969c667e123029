import { randomUUID } from 'node:crypto';
import { type Envelope, failure } from '@concierge/contracts';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

/** "field: message; field: message" — names the fields without echoing their values. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

export function sendValidationFailure(reply: FastifyReply, error: z.ZodError) {
  return reply.code(400).send(failure(400, 'invalid_request', describeIssues(error), 'ValidationException'));
}

const CLIENT_ERROR_CODES: Record<number, string> = {
  400: 'invalid_request',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

/**
 * Fastify's own errors (malformed JSON, wrong content type, body too large) get the cidaas envelope
 * too; anything unexpected is a 500 whose reference number is in the log and in the answer.
 */
export function envelopeErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const code = CLIENT_ERROR_CODES[status] ?? 'invalid_request';
    return reply.code(status).send(failure(status, code, error.message, 'RequestException'));
  }
  const referenceNumber = randomUUID();
  request.log.error({ err: error, referenceNumber }, 'unexpected error');
  const body: Envelope<never> = {
    success: false,
    status: 500,
    error: {
      code: 'internal_error',
      type: 'InternalException',
      error: 'An unexpected error occurred.',
      referenceNumber,
    },
  };
  return reply.code(500).send(body);
}
