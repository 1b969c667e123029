import { newReferenceNumber, ok } from '@concierge/contracts';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { z } from 'zod';
import { setEmailVerified } from '../users/email-verification';
import { changeUserStatus, SETTABLE_STATUSES, unblockUser } from '../users/user-status';
import { findUserBySub } from '../users/users';
import { requireAdminToken } from './admin-auth';
import { CIDAAS_CODES } from './cidaas-codes';
import type { RouteDeps } from './deps';
import { refuse, sendValidationFailure } from './envelope-errors';

const subParamsSchema = z.object({ sub: z.string().min(1).max(200) });
// BLOCKED is not settable (users/user-status.ts): in the body it is a malformed request.
const statusBodySchema = z.object({
  status: z.enum(SETTABLE_STATUSES),
  reason: z.string().max(1000).optional(),
});
/**
 * cidaas's admin update takes system fields through `userData`, naming the identity by `identityId`
 * and `provider` (docs.cidaas.com openapi/user/put-user-by-sub). Only email_verified means anything
 * here; the embedded provider has one identity per user, so the identity named is not checked, and
 * the rest is accepted and ignored.
 */
const adminUpdateBodySchema = z.object({
  userData: z.object({
    provider: z.string().max(200).optional(),
    identityId: z.string().max(200).optional(),
    email_verified: z.boolean().optional(),
  }),
});
const unblockBodySchema = z.object({ sub: z.string().trim().min(1).max(200) });

function userNotFound(reply: FastifyReply) {
  return refuse(reply, 417, CIDAAS_CODES.USER_NOT_FOUND, 'user not found', 'UsersException');
}

/** The server's changes to a user (cidaas-facts.md, "Users"); every route needs the admin token. */
export const adminUserRoutes: FastifyPluginAsync<RouteDeps> = async (
  app,
  { config, db, provider, webhooks },
) => {
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', requireAdminToken(provider, config.adminClient.clientId));

  // cidaas's documented transitions only (docs.cidaas.com openapi/user/patch-user-status): nothing
  // sets BLOCKED and nothing leaves it here; the same status again is a 400 too.
  app.patch('/user-srv/users/:sub/status', async (request, reply) => {
    const params = subParamsSchema.safeParse(request.params);
    if (!params.success) return sendValidationFailure(reply, params.error);
    const body = statusBodySchema.safeParse(request.body);
    if (!body.success) return sendValidationFailure(reply, body.error);
    const { status } = body.data;
    const change = await changeUserStatus(db, params.data.sub, status, config.adminClient.clientId);
    if (change.result === 'not_found') return userNotFound(reply);
    if (change.result === 'unchanged' || change.result === 'not_allowed') {
      const message =
        change.result === 'unchanged'
          ? `the user's status is ${status} already`
          : `the status cannot change from ${change.from} to ${status}`;
      return refuse(reply, 400, CIDAAS_CODES.STATUS_CHANGE_NOT_ALLOWED, message, 'UsersException');
    }
    // Nobody waits for the activation event; the relay delivers it in the background.
    void webhooks.deliver(change.eventIds);
    return ok({ updated: true });
  });

  // cidaas's documented admin update (docs.cidaas.com guides/user-management/user-management-flows/
  // update-account; openapi/user/put-user-by-sub). The legacy PUT /users-srv/user/{sub} is not served:
  // the server asks it only when this one is refused.
  app.put('/user-srv/users/:sub', async (request, reply) => {
    const params = subParamsSchema.safeParse(request.params);
    if (!params.success) return sendValidationFailure(reply, params.error);
    const body = adminUpdateBodySchema.safeParse(request.body);
    if (!body.success) return sendValidationFailure(reply, body.error);
    const { sub } = params.data;
    const isVerified = body.data.userData.email_verified;
    if (isVerified === undefined) {
      // Nothing this provider keeps was sent; the answer still tells whether the user exists.
      return (await findUserBySub(db, sub)) ? ok({ updated: true }) : userNotFound(reply);
    }
    const change = await setEmailVerified(db, sub, isVerified, config.adminClient.clientId);
    if (change.result === 'not_found') return userNotFound(reply);
    void webhooks.deliver(change.eventIds);
    return ok({ updated: true });
  });

  // cidaas's fraud detection unblock (docs.cidaas.com openapi/4.0.6/fds/post-unblock, scope
  // cidaas:fds_settings_write): the one documented way out of BLOCKED. 204 without a body is the
  // documented "no matching blocked sub" (not blocked, or unknown).
  app.post('/fraud-detection-srv/unblock', async (request, reply) => {
    const body = unblockBodySchema.safeParse(request.body);
    if (!body.success) return sendValidationFailure(reply, body.error);
    if (!(await unblockUser(db, body.data.sub))) return reply.code(204).send();
    return ok({ unblocked: true });
  });
};

/**
 * `PUT /users-srv/user/profile/{sub}` is cidaas's self-service update (scope `profile`, the user's
 * own token; cidaas-facts.md, "Users"). The embedded provider issues no user tokens for it, so it
 * refuses every caller, the admin client included, with cidaas's recorded 401 body (that of its
 * userinfo), before anything else is looked at.
 */
export const selfServiceProfileRoutes: FastifyPluginAsync<RouteDeps> = async (app) => {
  const accessDenied = async (_request: unknown, reply: FastifyReply) =>
    reply.code(401).send({ error: 'Access denied for this resource', refnumber: newReferenceNumber() });
  app.put('/users-srv/user/profile/:sub', { onRequest: accessDenied }, accessDenied);
};
