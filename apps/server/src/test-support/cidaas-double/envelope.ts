import { failure, ok } from '@concierge/contracts';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import type { CidaasDoubleVariants } from './types';

/** cidaas's integer codes (cidaas-facts.md "Codes seen"; provider-protocol.md "Codes"). */
export const CODES = {
  /** Ours: malformed input. */
  malformed: 10000,
  invalidRequestId: 10001,
  invalidResetRequest: 10002,
  passwordMismatch: 10009,
  /** Unknown in cidaas; what the embedded provider answers. */
  emailTaken: 10011,
  /** The 400 is recorded, the code is ours. */
  statusUnchanged: 10013,
  userNotFound: 10301,
  requiredField: 507,
  /** Ours: no recorded code for a missing or invalid bearer token. */
  unauthorized: 401,
  /** Ours, and deliberately not 10301: a client must not take a wrong path for "user not found". */
  noSuchCall: 404,
} as const;

export function answer(reply: FastifyReply, data: unknown) {
  return reply.code(200).send(ok(data));
}

/** A refusal in the recorded shape: integer code, exception-name type, status repeated inside. */
export function refuse(
  reply: FastifyReply,
  status: number,
  code: number,
  message: string,
  type = 'UsersException',
) {
  return reply.code(status).send(failure(status, code, message, type));
}

export function malformed(reply: FastifyReply, message: string) {
  return refuse(reply, 400, CODES.malformed, message, 'ValidationException');
}

/** "field: message; …" — names the fields without echoing values (passwords). */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/** The three plausible answers for an unknown user (variant `userNotFound`). */
export function userNotFound(reply: FastifyReply, variant: CidaasDoubleVariants['userNotFound']) {
  if (variant === '204') return reply.code(204).send();
  return refuse(reply, Number(variant), CODES.userNotFound, 'user not found', 'UsersException');
}
