import { failure, loginFormSchema } from '@concierge/contracts';
import formbody from '@fastify/formbody';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { z } from 'zod';
import { clientOfInteraction, findInteraction, remainingSeconds } from '../oidc/interactions';
import { type LoginPageParams, portalLoginUrl } from '../portal-urls';
import { attemptPasswordLogin } from '../users/password-login';
import type { RouteDeps } from './deps';
import { describeIssues } from './envelope-errors';

const requestIdSchema = z.string().min(1).max(200);
const subdomainSchema = z.string().regex(/^[a-z0-9-]{1,63}$/);

// Texts for error_description; the portal shows its own translation of `error` (spec §8).
const DESCRIPTIONS = {
  invalid_request: 'username and password are required',
  session_expired: 'the sign-in request has expired, please start again',
  invalid_username_password: 'Incorrect username or password',
  email_not_verified: 'the e-mail address has not been verified yet',
  access_denied: 'The user lacks the required permissions for this application (roles)',
} as const;
type LoginError = keyof typeof DESCRIPTIONS;

/**
 * The hosted login page's form POST (provider-protocol.md, "Hosted-page login"). Answers are always
 * redirects: on success to oidc-provider's resume URL (which then sends the code to the relying party),
 * otherwise back to the portal's /login with `error`.
 */
export const loginRoutes: FastifyPluginAsync<RouteDeps> = async (
  app,
  { config, db, provider, clients, webhooks },
) => {
  await app.register(formbody);
  app.removeContentTypeParser('text/plain');

  function backToLogin(reply: FastifyReply, error: LoginError, params: LoginPageParams) {
    const location = portalLoginUrl(config.portalUrl, {
      ...params,
      error,
      error_description: DESCRIPTIONS[error],
    });
    return reply.redirect(location, 303);
  }

  app.post('/login-srv/login', async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const body: Record<string, unknown> =
      typeof request.body === 'object' && request.body !== null
        ? (request.body as Record<string, unknown>)
        : {};
    const form = loginFormSchema.safeParse(body);
    const requestId = form.success ? form.data.requestId : requestIdSchema.safeParse(body.requestId).data;
    const interaction = requestId ? await findInteraction(provider, requestId) : undefined;
    const client = interaction ? clientOfInteraction(interaction, clients) : undefined;
    // The portal may send its subdomain along; it only matters when the request itself is gone.
    const subdomain = client?.subdomain ?? subdomainSchema.safeParse(body.subdomain).data;

    if (!form.success) {
      if (!interaction) {
        return reply
          .code(400)
          .send(failure(400, 'invalid_request', describeIssues(form.error), 'ValidationException'));
      }
      const username = typeof body.username === 'string' ? body.username.trim() : undefined;
      return backToLogin(reply, 'invalid_request', { requestId, subdomain, username });
    }
    if (!interaction) return backToLogin(reply, 'session_expired', { subdomain });

    const { username, password } = form.data;
    const failed = (error: LoginError) =>
      backToLogin(reply, error, { requestId: interaction.uid, subdomain, username });
    const { outcome, eventIds } = await attemptPasswordLogin(db, {
      email: username,
      password,
      clientId: client?.client_id ?? String(interaction.params.client_id),
      requiredRoles: client?.required_roles ?? [],
    });
    // The portal reads the server's failed-login counter as soon as it sees the answer: give the events
    // a bounded moment to arrive first (the relay keeps trying afterwards).
    await webhooks.deliver(eventIds, config.webhook.loginWaitMs);
    // A locked (DECLINED) user is answered exactly like a wrong password (provider-protocol.md).
    if (outcome.result !== 'signed_in') return failed(outcome.result);
    const { user } = outcome;

    // Finish the interaction ourselves and send the browser to its resume URL: the resume cookie set at
    // /authz-srv/authz still ties the flow to the browser that started it. interactionFinished() cannot
    // be used here, its cookie is scoped to the portal's path (STACK-NOTES).
    interaction.result = { login: { accountId: user.sub }, consent: {} };
    await interaction.save(remainingSeconds(interaction));
    return reply.redirect(interaction.returnTo, 303);
  });
};
