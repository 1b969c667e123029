import { failure } from '@concierge/contracts';
import { loggableError } from '@concierge/database';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { CIDAAS_CODES, type CidaasCode, type StatusAsCode } from './cidaas-codes';

/** "field: message; field: message" — names the fields without echoing their values. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/** A refusal in cidaas's envelope; the HTTP status and the envelope's status agree (cidaas-facts.md). */
export function refuse(
  reply: FastifyReply,
  status: number,
  code: CidaasCode | StatusAsCode,
  message: string,
  type: string,
) {
  return reply.code(status).send(failure(status, code, message, type));
}

export function sendValidationFailure(reply: FastifyReply, error: z.ZodError) {
  return refuse(reply, 400, CIDAAS_CODES.MALFORMED_REQUEST, describeIssues(error), 'ValidationException');
}

/**
 * Fastify's own errors (malformed JSON, wrong content type, body too large) are malformed requests in
 * the cidaas envelope; anything unexpected is a 500 whose reference number is in the log and in the
 * answer.
 */
export function envelopeErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return refuse(reply, status, CIDAAS_CODES.MALFORMED_REQUEST, error.message, 'RequestException');
  }
  const body = failure(500, 500, 'An unexpected error occurred.', 'InternalException');
  const referenceNumber = body.success ? undefined : body.error.referenceNumber;
  // A database error quotes row values (e-mails, tokens): its SQLSTATE and this number must do.
  request.log.error({ err: loggableError(error), referenceNumber }, 'unexpected error');
  return reply.code(500).send(body);
}
