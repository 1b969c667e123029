import { ok, userExistenceBodySchema } from '@concierge/contracts';
import cors from '@fastify/cors';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { z } from 'zod';
import { findInteraction } from '../oidc/interactions';
import { consumeExistenceQuestion } from '../users/login-limits';
import { findUserByEmail } from '../users/users';
import { requireAdminToken } from './admin-auth';
import { CIDAAS_CODES } from './cidaas-codes';
import type { RouteDeps } from './deps';
import { refuse, sendValidationFailure } from './envelope-errors';
import { portalCorsOptions } from './portal-cors';

export const USER_ACTIONS_PREFIX = '/useractions-srv';

const adminExistenceBodySchema = z.object({ email: userExistenceBodySchema.shape.email });

/**
 * cidaas documents 204 for an unknown user (provider-protocol.md: 204, 417 + 10301 or 404 are all
 * plausible); the embedded provider picks the 204, with no body at all.
 */
function userNotFound(reply: FastifyReply) {
  return reply.code(204).send();
}

/** Registered under USER_ACTIONS_PREFIX; CORS for the portal applies to this prefix only. */
export const userExistenceRoutes: FastifyPluginAsync<RouteDeps> = async (app, { config, db, provider }) => {
  await app.register(cors, portalCorsOptions(config.portalUrl));
  app.removeContentTypeParser('text/plain');

  // The hosted login page asks before it posts the password (query webfinger/rememberMe are accepted
  // and have no effect here). Only for a live sign-in request: otherwise anybody could ask about any
  // e-mail with a made-up request id (issue "Hardening", oracles).
  app.post<{ Params: { requestId: string } }>('/userexistence/:requestId', async (request, reply) => {
    const body = userExistenceBodySchema.safeParse(request.body);
    if (!body.success) return sendValidationFailure(reply, body.error);
    const { requestId } = request.params;
    if (!(await consumeExistenceQuestion(db, config.loginLimits, request.ip))) {
      return refuse(reply, 429, 429, 'Too many requests. Try again later.', 'RateLimitException');
    }
    const interaction = requestId.length <= 200 ? await findInteraction(provider, requestId) : undefined;
    if (!interaction) {
      return refuse(reply, 400, CIDAAS_CODES.INVALID_REQUEST_ID, 'Invalid request id', 'UsersException');
    }
    const user = await findUserByEmail(db, body.data.email);
    return user ? ok({ exist: true }) : userNotFound(reply);
  });

  // The server's look-up of a user's sub (admin API); whether cidaas sends sub is unknown, we do.
  app.post(
    '/userexistence',
    { onRequest: requireAdminToken(provider, config.adminClient.clientId) },
    async (request, reply) => {
      const body = adminExistenceBodySchema.safeParse(request.body);
      if (!body.success) return sendValidationFailure(reply, body.error);
      const user = await findUserByEmail(db, body.data.email);
      return user ? ok({ exist: true, sub: user.sub, userStatus: user.status }) : userNotFound(reply);
    },
  );
};
