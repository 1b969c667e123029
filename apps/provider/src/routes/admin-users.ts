import { ok } from '@concierge/contracts';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { z } from 'zod';
import { USER_STATUSES } from '../db/schema';
import { setEmailVerified } from '../users/email-verification';
import { changeUserStatus } from '../users/user-status';
import { findUserBySub } from '../users/users';
import { requireAdminToken } from './admin-auth';
import { CIDAAS_CODES } from './cidaas-codes';
import type { RouteDeps } from './deps';
import { refuse, sendValidationFailure } from './envelope-errors';

const subParamsSchema = z.object({ sub: z.string().min(1).max(200) });
const statusBodySchema = z.object({ status: z.enum(USER_STATUSES), reason: z.string().max(1000).optional() });
// cidaas's profile update takes the whole profile; only email_verified means anything here, the
// rest is accepted and ignored.
const profileBodySchema = z.object({ email_verified: z.boolean().optional() });

function userNotFound(reply: FastifyReply) {
  return refuse(reply, 417, CIDAAS_CODES.USER_NOT_FOUND, 'user not found', 'UsersException');
}

/** The server's changes to a user (provider-protocol.md, "Admin API"); every route needs the admin token. */
export const adminUserRoutes: FastifyPluginAsync<RouteDeps> = async (
  app,
  { config, db, provider, webhooks },
) => {
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', requireAdminToken(provider, config.adminClient.clientId));

  app.patch('/user-srv/users/:sub/status', async (request, reply) => {
    const params = subParamsSchema.safeParse(request.params);
    if (!params.success) return sendValidationFailure(reply, params.error);
    const body = statusBodySchema.safeParse(request.body);
    if (!body.success) return sendValidationFailure(reply, body.error);
    const change = await changeUserStatus(db, params.data.sub, body.data.status, config.adminClient.clientId);
    if (change.result === 'not_found') return userNotFound(reply);
    if (change.result === 'unchanged') {
      return refuse(
        reply,
        400,
        CIDAAS_CODES.STATUS_CHANGE_NOT_ALLOWED,
        `the user's status is ${body.data.status} already`,
        'UsersException',
      );
    }
    // Nobody waits for the activation event; the relay delivers it in the background.
    void webhooks.deliver(change.eventIds);
    return ok({ updated: true });
  });

  app.put('/users-srv/user/profile/:sub', async (request, reply) => {
    const params = subParamsSchema.safeParse(request.params);
    if (!params.success) return sendValidationFailure(reply, params.error);
    const body = profileBodySchema.safeParse(request.body);
    if (!body.success) return sendValidationFailure(reply, body.error);
    const { sub } = params.data;
    const isVerified = body.data.email_verified;
    if (isVerified === undefined) {
      // Nothing this provider keeps was sent; the answer still tells whether the user exists.
      return (await findUserBySub(db, sub)) ? ok({ updated: true }) : userNotFound(reply);
    }
    const change = await setEmailVerified(db, sub, isVerified, config.adminClient.clientId);
    if (change.result === 'not_found') return userNotFound(reply);
    void webhooks.deliver(change.eventIds);
    return ok({ updated: true });
  });
};
