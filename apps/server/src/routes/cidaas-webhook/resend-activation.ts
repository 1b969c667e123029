import { ok, PORTAL_API_PREFIX, pickLanguage, resendActivationBodySchema } from '@concierge/contracts';
import type { FastifyInstance } from 'fastify';
import { type ResendDeps, resendActivation } from '../../activation/resend-activation';
import { parseInput } from '../../http/parse-input';
import { portalRequestGuard } from '../../http/portal-request-guard';

interface ResendOptions extends Omit<ResendDeps, 'log'> {
  portalOrigin: string;
}

/**
 * Every answer takes at least this long: the work behind it differs for an unknown, a pending and an
 * activated account (a provider look-up, a new link), and its time must not tell them apart.
 */
export const RESEND_MIN_DURATION_MS = 150;

/** spec §7 resend-account-activation-email: `{success:true, status:200, data:{}}` for every e-mail. */
export async function resendActivationRoute(app: FastifyInstance, options: ResendOptions) {
  const { portalOrigin, ...deps } = options;
  app.post(
    `${PORTAL_API_PREFIX}/resend-account-activation-email`,
    { onRequest: portalRequestGuard(portalOrigin) },
    async (request) => {
      const startedAt = Date.now();
      // A malformed address cannot have an account: refusing it tells nothing about anyone.
      const body = parseInput(resendActivationBodySchema, request.body, 'missing_request_property');
      await resendActivation(
        { ...deps, log: request.log },
        { email: body.email, language: pickLanguage(request.headers['accept-language']), ip: request.ip },
      );
      const remaining = RESEND_MIN_DURATION_MS - (Date.now() - startedAt);
      if (remaining > 0) await new Promise((resolve) => setTimeout(resolve, remaining));
      return ok({});
    },
  );
}
