import { failure, newReferenceNumber, ok } from '@concierge/contracts';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import type { CidaasDoubleVariants } from './types';

/** cidaas's integer codes (cidaas-facts.md "Codes seen"; provider-protocol.md "Codes"). */
export const CODES = {
  /** Ours: malformed input (cidaas's validation code is unknown). */
  malformed: 10000,
  /** Recorded: register, reset initiate, public info. */
  invalidRequestId: 10001,
  /** Recorded: reset accept. */
  invalidResetRequest: 10002,
  /** Recorded: reset accept (with 417). */
  passwordMismatch: 10009,
  /** Unknown in cidaas; what the embedded provider answers. */
  emailTaken: 10011,
  /** The 400 is documented (openapi/user/patch-user-status), the code is ours. */
  statusNotAllowed: 10013,
  /** The 400 and its text are documented (openapi/user/put-user-by-sub), the code is ours. */
  noSuchIdentity: 10014,
  /** The 400 is documented (openapi/4.0.6/fds/post-unblock: "body must include a non-empty sub"), the code ours. */
  subMissing: 10015,
  /** Documented: user existence, with 204 (or 417). */
  userNotFound: 10301,
  /** Recorded: a registration field the tenant requires (with 417). */
  requiredField: 507,
  /** Ours, and deliberately not 10301: a client must not take a wrong path for "user not found". */
  noSuchCall: 404,
} as const;

/**
 * The recorded 401 body (cidaas-facts.md "Tokens": userinfo with a bad token): no envelope. That the
 * admin calls answer a missing, invalid or insufficient token the same way is assumed (unknown).
 */
export function accessDenied(reply: FastifyReply) {
  return reply.code(401).send({ error: 'Access denied for this resource', refnumber: newReferenceNumber() });
}

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

/**
 * A call the tenant does not have. What cidaas answers a path it does not serve is unknown (ours: 404
 * in the envelope, with a code that is not 10301).
 */
export function noSuchCall(reply: FastifyReply) {
  return refuse(reply, 404, CODES.noSuchCall, 'no such call', 'RouteException');
}

/** Ours: cidaas's answer to malformed input is unknown beyond being a 4xx. */
export function malformed(reply: FastifyReply, message: string) {
  return refuse(reply, 400, CODES.malformed, message, 'ValidationException');
}

/** "field: message; …" — names the fields without echoing values (passwords). */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/** The plausible answers for an unknown user (variant `userNotFound`, types.ts names the sources). */
export function userNotFound(reply: FastifyReply, variant: CidaasDoubleVariants['userNotFound']) {
  if (variant === '204') return reply.code(204).send();
  return refuse(reply, Number(variant), CODES.userNotFound, 'user not found', 'UsersException');
}
