import {
  failure,
  isStrongPassword,
  ok,
  type RESET_ACCEPT_ERROR_CODES,
  resetPasswordAcceptBodySchema,
  resetPasswordInitiateBodySchema,
} from '@concierge/contracts';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { clientOfInteraction, findInteraction } from '../oidc/interactions';
import { acceptPasswordReset } from '../reset/accept-reset';
import { initiatePasswordReset } from '../reset/initiate-reset';
import { requireAdminToken } from './admin-auth';
import type { RouteDeps } from './deps';
import { sendValidationFailure } from './envelope-errors';

/**
 * Every initiate answer takes at least this long, so known and unknown e-mails (and the rate limit)
 * cannot be told apart by timing; the e-mail itself is sent afterwards, in the background.
 */
const INITIATE_MIN_DURATION_MS = 150;

function resetFailure(reply: FastifyReply, code: (typeof RESET_ACCEPT_ERROR_CODES)[number], message: string) {
  return reply.code(400).send(failure(400, code, message, 'ResetPasswordException'));
}

/** Password reset by e-mailed link (provider-protocol.md, "Admin API"); both calls need the admin token. */
export const passwordResetRoutes: FastifyPluginAsync<RouteDeps> = async (
  app,
  { config, db, provider, clients, webhooks, mail },
) => {
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', requireAdminToken(provider, config.adminClient.clientId));

  app.post('/users-srv/resetpassword/initiate', async (request, reply) => {
    const startedAt = Date.now();
    const body = resetPasswordInitiateBodySchema.safeParse(request.body);
    if (!body.success) return sendValidationFailure(reply, body.error);
    const interaction = await findInteraction(provider, body.data.requestId);
    const header = request.headers.acceptlanguage ?? request.headers['accept-language'];
    const { rprq, mailIds } = await initiatePasswordReset(
      db,
      {
        email: body.data.email,
        requestId: body.data.requestId,
        acceptLanguage: body.data.acceptLanguage ?? (typeof header === 'string' ? header : undefined),
      },
      {
        portalUrl: config.portalUrl,
        client: interaction ? clientOfInteraction(interaction, clients) : undefined,
        fallbackTenantName: config.tenant.name,
      },
    );
    void mail.deliver(mailIds);
    const remaining = INITIATE_MIN_DURATION_MS - (Date.now() - startedAt);
    if (remaining > 0) await new Promise((resolve) => setTimeout(resolve, remaining));
    return ok({ reset_initiated: true, rprq });
  });

  app.post('/users-srv/resetpassword/accept', async (request, reply) => {
    const body = resetPasswordAcceptBodySchema.safeParse(request.body);
    if (!body.success) return sendValidationFailure(reply, body.error);
    const { resetRequestId, exchangeId, password, confirmPassword } = body.data;
    if (password !== confirmPassword) {
      return resetFailure(reply, 'password_mismatch', 'password and confirmPassword differ');
    }
    if (!isStrongPassword(password)) {
      return resetFailure(reply, 'password_too_weak', 'the password does not meet the password rules');
    }
    const result = await acceptPasswordReset(
      db,
      { rprq: resetRequestId, exchangeId, password },
      config.adminClient.clientId,
    );
    if (!result.isReset) {
      return resetFailure(reply, 'invalid_reset_request', 'the reset link is unknown, used or expired');
    }
    void webhooks.deliver(result.eventIds);
    return ok({ reseted: true });
  });
};
