import {
  isStrongPassword,
  ok,
  resetPasswordAcceptBodySchema,
  resetPasswordInitiateBodySchema,
} from '@concierge/contracts';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { clientOfInteraction, findInteraction } from '../oidc/interactions';
import { acceptPasswordReset } from '../reset/accept-reset';
import { initiatePasswordReset } from '../reset/initiate-reset';
import { requireAdminToken } from './admin-auth';
import { CIDAAS_CODES, type CidaasCode } from './cidaas-codes';
import type { RouteDeps } from './deps';
import { refuse, sendValidationFailure } from './envelope-errors';

/**
 * Every initiate answer takes at least this long, so known and unknown e-mails (and the rate limit)
 * cannot be told apart by timing; the e-mail itself is sent afterwards, in the background.
 */
const INITIATE_MIN_DURATION_MS = 150;

function resetFailure(reply: FastifyReply, status: 400 | 417, code: CidaasCode, message: string) {
  return refuse(reply, status, code, message, 'ResetPasswordException');
}

async function waitUntilElapsed(startedAt: number, durationMs: number): Promise<void> {
  const remaining = durationMs - (Date.now() - startedAt);
  if (remaining > 0) await new Promise((resolve) => setTimeout(resolve, remaining));
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
    if (!interaction) {
      // Refused before the e-mail is even looked at (cidaas: 10001), after the same minimum time.
      await waitUntilElapsed(startedAt, INITIATE_MIN_DURATION_MS);
      return resetFailure(reply, 400, CIDAAS_CODES.INVALID_REQUEST_ID, 'Invalid request id');
    }
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
        client: clientOfInteraction(interaction, clients),
        fallbackTenantName: config.tenant.name,
        linkLifetimeMinutes: config.resetLinkLifetimeMinutes,
      },
    );
    void mail.deliver(mailIds);
    await waitUntilElapsed(startedAt, INITIATE_MIN_DURATION_MS);
    return ok({ reset_initiated: true, rprq });
  });

  app.post('/users-srv/resetpassword/accept', async (request, reply) => {
    const body = resetPasswordAcceptBodySchema.safeParse(request.body);
    if (!body.success) return sendValidationFailure(reply, body.error);
    const { resetRequestId, exchangeId, password, confirmPassword } = body.data;
    if (password !== confirmPassword) {
      return resetFailure(reply, 417, CIDAAS_CODES.PASSWORD_MISMATCH, 'password and confirmPassword differ');
    }
    if (!isStrongPassword(password)) {
      return resetFailure(
        reply,
        417,
        CIDAAS_CODES.PASSWORD_RULES,
        'the password does not meet the password rules',
      );
    }
    const header = request.headers.acceptlanguage ?? request.headers['accept-language'];
    const result = await acceptPasswordReset(
      db,
      {
        rprq: resetRequestId,
        exchangeId,
        password,
        acceptLanguage: typeof header === 'string' ? header : undefined,
      },
      { fallbackClientId: config.adminClient.clientId, clients, fallbackTenantName: config.tenant.name },
    );
    if (!result.isReset) {
      return resetFailure(
        reply,
        400,
        CIDAAS_CODES.INVALID_RESET_IDS,
        'the reset link is unknown, used or expired',
      );
    }
    void webhooks.deliver(result.eventIds);
    void mail.deliver(result.mailIds);
    return ok({ reseted: true });
  });
};
