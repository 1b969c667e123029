import { emailSchema, failure, isStrongPassword, ok } from '@concierge/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { USER_STATUSES } from '../db/schema';
import { changeUserStatus } from '../users/user-status';
import { createUser } from '../users/users';
import { requireAdminToken } from './admin-auth';
import type { RouteDeps } from './deps';
import { sendValidationFailure } from './envelope-errors';

const optionalText = (max: number) => z.string().trim().min(1).max(max).optional();

// Unknown fields are dropped, not refused: cidaas's register takes many more and the server's one
// provider client may send them.
const registerBodySchema = z.object({
  email: emailSchema,
  password: z.string().min(1).max(1024),
  password_echo: z.string().min(1).max(1024),
  given_name: optionalText(200),
  family_name: optionalText(200),
  locale: optionalText(35),
  mobile_number: optionalText(40),
  provider: z.literal('self').optional(),
  roles: z.array(z.string().min(1).max(100)).max(50).optional(),
});

const statusParamsSchema = z.object({ sub: z.string().min(1).max(200) });
const statusBodySchema = z.object({ status: z.enum(USER_STATUSES) });

/** The server's admin API (provider-protocol.md, "Admin API"); every route needs the admin token. */
export const adminUserRoutes: FastifyPluginAsync<RouteDeps> = async (
  app,
  { config, db, provider, webhooks },
) => {
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', requireAdminToken(provider, config.adminClient.clientId));

  app.post('/users-srv/register', async (request, reply) => {
    const body = registerBodySchema.safeParse(request.body);
    if (!body.success) return sendValidationFailure(reply, body.error);
    const { password, password_echo: passwordEcho, provider: _provider, ...profile } = body.data;
    if (password !== passwordEcho) {
      return reply
        .code(400)
        .send(
          failure(400, 'password_mismatch', 'password and password_echo differ', 'RegistrationException'),
        );
    }
    if (!isStrongPassword(password)) {
      return reply
        .code(400)
        .send(
          failure(
            400,
            'password_too_weak',
            'the password does not meet the password rules',
            'RegistrationException',
          ),
        );
    }
    const created = await createUser(db, { ...profile, password, status: 'PENDING' });
    if (!created.isCreated) {
      return reply
        .code(409)
        .send(
          failure(
            409,
            'email_already_registered',
            'the e-mail address is already registered',
            'RegistrationException',
          ),
        );
    }
    return ok({ sub: created.sub, userStatus: 'PENDING' });
  });

  app.patch('/user-srv/users/:sub/status', async (request, reply) => {
    const params = statusParamsSchema.safeParse(request.params);
    if (!params.success) return sendValidationFailure(reply, params.error);
    const body = statusBodySchema.safeParse(request.body);
    if (!body.success) return sendValidationFailure(reply, body.error);
    const { user, eventIds } = await changeUserStatus(
      db,
      params.data.sub,
      body.data.status,
      config.adminClient.clientId,
    );
    if (!user)
      return reply.code(404).send(failure(404, 'user_not_found', 'no user with this sub', 'UserException'));
    // Nobody waits for the activation event; the relay delivers it in the background.
    void webhooks.deliver(eventIds);
    return ok({ sub: user.sub, userStatus: user.status });
  });
};
