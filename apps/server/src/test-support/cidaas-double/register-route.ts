import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireBearer } from './admin-auth';
import { answer, CODES, describeIssues, malformed, refuse } from './envelope';
import type { DoubleContext } from './types';
import { maskSub } from './users';

// Loose: the tenant's custom registration fields come along and are checked by name below.
const registerBody = z
  .object({
    email: z.string().trim().min(1).max(320),
    password: z.string().min(1).max(1000),
    password_echo: z.string().max(1000).optional(),
    provider: z.string().max(50).optional(),
    locale: z.string().max(50).optional(),
    given_name: z.string().max(200).optional(),
    family_name: z.string().max(200).optional(),
  })
  .loose();

const isMissing = (value: unknown) => value === undefined || value === null || value === '';

/**
 * `POST /users-srv/register` (admin API). Checks in cidaas's order as far as recorded: the request
 * id header first (400 + 10001), then the tenant's required fields (417 + 507, variant
 * requiredRegistrationFields); an e-mail taken is unknown in cidaas and answered as the embedded
 * provider does (409 + 10011: UNKNOWN, the server checks existence first). Password strength is not
 * checked (cidaas's policy answer: unknown).
 */
export function registerRoute(app: FastifyInstance, ctx: DoubleContext): void {
  app.post('/users-srv/register', { onRequest: requireBearer(ctx) }, async (request, reply) => {
    const header = request.headers.requestid;
    if (!ctx.requestIds.live(typeof header === 'string' ? header : undefined)) {
      return refuse(reply, 400, CODES.invalidRequestId, 'Invalid request id');
    }
    const body = registerBody.safeParse(request.body);
    if (!body.success) return malformed(reply, describeIssues(body.error));
    const fields = body.data as Record<string, unknown>;
    const missing = ctx.variants().requiredRegistrationFields.find((name) => isMissing(fields[name]));
    if (missing !== undefined) return refuse(reply, 417, CODES.requiredField, `${missing} cannot be null`);
    if (ctx.users.byEmail(body.data.email)) {
      return refuse(reply, 409, CODES.emailTaken, 'email already registered');
    }
    // Recorded: self-registered users are VERIFIED with an unverified e-mail, answered with sub,
    // userStatus, email_verified, q, suggested_action, suggested_redirect_uri, next_token (the
    // values of the last three: unknown).
    const user = ctx.users.add({
      email: body.data.email,
      password: body.data.password,
      userStatus: 'VERIFIED',
      email_verified: false,
      ...(body.data.given_name === undefined ? {} : { given_name: body.data.given_name }),
    });
    return answer(reply, {
      sub: user.sub,
      userStatus: user.userStatus,
      email_verified: user.email_verified,
      q: maskSub(user.sub),
      suggested_action: '',
      suggested_redirect_uri: '',
      next_token: '',
    });
  });
}
