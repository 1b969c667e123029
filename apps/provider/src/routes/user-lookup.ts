import { ok, userExistenceBodySchema } from '@concierge/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { findUserByEmail, findUserBySub, type User } from '../users/users';
import { requireAdminToken } from './admin-auth';
import { CIDAAS_CODES } from './cidaas-codes';
import type { RouteDeps } from './deps';
import { refuse, sendValidationFailure } from './envelope-errors';

// The same e-mail field as the existence check: the server asks both with one address.
const searchBodySchema = z.object({ email: userExistenceBodySchema.shape.email });
const subParamsSchema = z.object({ sub: z.string().min(1).max(200) });

function summaryOf(user: User) {
  return { sub: user.sub, email: user.email, email_verified: user.email_verified, userStatus: user.status };
}

/** Names left out when unknown rather than sent as null: the fields are optional in the contract. */
function profileOf(user: User) {
  return {
    ...summaryOf(user),
    ...(user.given_name === null ? {} : { given_name: user.given_name }),
    ...(user.family_name === null ? {} : { family_name: user.family_name }),
    ...(user.locale === null ? {} : { locale: user.locale }),
  };
}

/** The server's look-ups of one user (provider-protocol.md, "Admin API": user by e-mail, user by sub). */
export const userLookupRoutes: FastifyPluginAsync<RouteDeps> = async (app, { config, db, provider }) => {
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', requireAdminToken(provider, config.adminClient.clientId));

  // Asked when the existence check brings no sub; an e-mail belongs to one user at most.
  app.post('/users-srv/user/search', async (request, reply) => {
    const body = searchBodySchema.safeParse(request.body);
    if (!body.success) return sendValidationFailure(reply, body.error);
    const user = await findUserByEmail(db, body.data.email);
    return ok(user ? [summaryOf(user)] : []);
  });

  // Resolves the e-mail of a webhook event that carries only a sub.
  app.get('/users-srv/internal/userinfo/profile/:sub', async (request, reply) => {
    const params = subParamsSchema.safeParse(request.params);
    const user = params.success ? await findUserBySub(db, params.data.sub) : undefined;
    if (!user) return refuse(reply, 417, CIDAAS_CODES.USER_NOT_FOUND, 'user not found', 'UsersException');
    return ok(profileOf(user));
  });
};
