import { EMAIL_MAX_LENGTH, loginFormSchema } from '@concierge/contracts';
import { noteForLog } from '@concierge/observability';
import formbody from '@fastify/formbody';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Interaction } from 'oidc-provider';
import { z } from 'zod';
import { clientOfInteraction, findInteraction, remainingSeconds } from '../oidc/interactions';
import { RequestCookies } from '../oidc/request-cookies';
import { hostedPageLocation, hostedPageUrlOf, sessionExpiredLocation } from '../portal-urls';
import { type AuthFailureReason, logAuthEvent } from '../users/auth-events';
import { countFailureForAlarm, reserveLoginAttempt } from '../users/login-limits';
import { attemptPasswordLogin, type PasswordLoginOutcome } from '../users/password-login';
import { maskedSub } from '../users/users';
import { CIDAAS_CODES } from './cidaas-codes';
import type { RouteDeps } from './deps';
import { describeIssues, refuse } from './envelope-errors';

const requestIdSchema = z.string().min(1).max(200);

/** cidaas's text for an unknown user (recorded); a known user gets sub and q instead. */
const UNKNOWN_USER_DESCRIPTION = 'Given username or password is invalid';

type FailedOutcome = Exclude<PasswordLoginOutcome, { result: 'signed_in' }>;

interface FailureParams {
  error: string;
  error_description?: string;
  username?: string;
  sub?: string;
  q?: string;
}

/** A failed sign-in as cidaas reports it: a known user by sub and q, an unknown one by description. */
function failureParams(outcome: FailedOutcome, username: string): FailureParams {
  const { result: error, sub } = outcome;
  return sub
    ? { error, username, sub, q: maskedSub(sub) }
    : { error, error_description: UNKNOWN_USER_DESCRIPTION, username };
}

/**
 * The hosted login page's form POST (provider-protocol.md, "Hosted-page sign-in"). Answers are always
 * redirects: on success to oidc-provider's resume URL (which then sends the code to the relying
 * party), otherwise back to the client's hosted page with `error`. It answers at once: its webhook
 * events follow in the background, as cidaas's do.
 */
export const loginRoutes: FastifyPluginAsync<RouteDeps> = async (
  app,
  { config, db, provider, clients, webhooks, metrics },
) => {
  await app.register(formbody);
  app.removeContentTypeParser('text/plain');
  const requestCookies = new RequestCookies(db);

  function backToHostedPage(reply: FastifyReply, interaction: Interaction, params: FailureParams) {
    const pageUrl = hostedPageUrlOf(clientOfInteraction(interaction, clients), config.portalUrl);
    const location = hostedPageLocation(pageUrl, {
      error: params.error,
      error_description: params.error_description,
      username: params.username,
      username_type: 'email',
      sub: params.sub,
      q: params.q,
      requestId: interaction.uid,
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

    if (!form.success) {
      if (!interaction) {
        return refuse(
          reply,
          400,
          CIDAAS_CODES.MALFORMED_REQUEST,
          describeIssues(form.error),
          'ValidationException',
        );
      }
      // Echoed to prefill the form: only what could be an e-mail, so that a huge value cannot make
      // a huge Location header (proxies and browsers refuse those, the user would see no page).
      const username = typeof body.username === 'string' ? body.username.trim() : '';
      return backToHostedPage(reply, interaction, {
        error: 'invalid_request',
        error_description: 'username and password are required',
        username: username && username.length <= EMAIL_MAX_LENGTH ? username : undefined,
      });
    }
    // No client is known without the request, so its hosted page is not either.
    if (!interaction) {
      return reply.redirect(
        sessionExpiredLocation(config.portalUrl, form.data.requestId, form.data.username),
        303,
      );
    }

    const { username, password } = form.data;
    const client = clientOfInteraction(interaction, clients);
    const clientId = client?.client_id ?? String(interaction.params.client_id);
    const { ip } = request;
    const logAuth = (outcome: 'success' | 'failure' | 'locked', reason?: AuthFailureReason) => {
      logAuthEvent(request.log, config.logHashKey, { outcome, reason, clientId, email: username, ip });
      metrics.countSignIn(outcome, reason);
      noteForLog(request, { outcome: reason ? `${outcome}:${reason}` : outcome });
    };
    /** Every wrong-password answer (checked or limited) counts towards the global alarm rate. */
    const countForAlarm = async () => {
      const failures = await countFailureForAlarm(db, config.loginLimits);
      if (failures !== undefined) {
        request.log.warn(
          { event: 'auth_alarm', failures, perMinute: config.loginLimits.alarmPerMinute },
          'auth alarm: failed sign-ins above the configured rate',
        );
      }
    };

    // Per client IP and per request id (users/login-limits.ts). Beyond a limit the password is not
    // checked and no LOGIN_FAILURE webhook is written, so that the attempt cannot count towards the
    // server's lock of anybody's account; the answer is a wrong password's, as for an unknown user
    // (provider-protocol.md, "Hosted-page sign-in").
    const reservation = await reserveLoginAttempt(db, config.loginLimits, { ip, requestId: interaction.uid });
    if (reservation.refusedBy) {
      logAuth('failure', reservation.refusedBy === 'ip' ? 'ip_limit' : 'request_limit');
      await countForAlarm();
      return backToHostedPage(reply, interaction, {
        error: 'invalid_username_password',
        error_description: UNKNOWN_USER_DESCRIPTION,
        username,
      });
    }

    const { outcome, eventIds, isLocked } = await attemptPasswordLogin(
      db,
      { email: username, password, clientId, requiredRoles: client?.required_roles ?? [] },
      config.signIn,
    );
    // Answered at once; the events follow in the background (cidaas does not wait for its webhooks).
    void webhooks.deliver(eventIds);
    if (outcome.result === 'invalid_username_password') {
      logAuth('failure', outcome.result);
      if (isLocked) logAuth('locked');
      await countForAlarm();
    } else {
      // The password was right: no failed attempt after all, whatever the answer.
      await reservation.release();
      if (outcome.result === 'signed_in') logAuth('success');
      else logAuth('failure', outcome.result);
    }
    if (outcome.result !== 'signed_in') {
      return backToHostedPage(reply, interaction, failureParams(outcome, username));
    }

    // Finish the interaction ourselves and send the browser to its resume URL. oidc-provider resumes
    // only with the resume cookie of the request: the browser has it when it began the request itself
    // (/authz-srv/authz); for a request the portal's server generated, this browser gets the cookies
    // kept with it. interactionFinished() cannot be used here, its cookie is scoped to the portal's
    // path (STACK-NOTES).
    interaction.result = { login: { accountId: outcome.user.sub }, consent: {} };
    await interaction.save(remainingSeconds(interaction));
    const kept = await requestCookies.of(interaction.uid);
    if (kept.length > 0) reply.header('set-cookie', kept);
    return reply.redirect(interaction.returnTo, 303);
  });
};
