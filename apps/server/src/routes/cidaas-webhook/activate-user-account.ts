import { activateUserAccountBodySchema, ok, PORTAL_API_PREFIX } from '@concierge/contracts';
import type { FastifyInstance } from 'fastify';
import { type ActivateDeps, activateAccount } from '../../activation/activate-account';
import { AppError } from '../../http/errors';
import { parseInput } from '../../http/parse-input';
import { portalRequestGuard } from '../../http/portal-request-guard';
import { consumeRateLimit } from '../../http/rate-limit';

interface ActivateOptions extends Omit<ActivateDeps, 'log'> {
  portalOrigin: string;
}

// Verification ids cannot be guessed; the limit keeps a flood away from the provider.
const PER_IP = { limit: 60, windowSeconds: 15 * 60 };

/** spec §7 activate-user-account: 200 `{isAlreadyActivated}`, otherwise an envelope (§8 verification codes). */
export async function activateUserAccountRoute(app: FastifyInstance, options: ActivateOptions) {
  const { portalOrigin, ...deps } = options;
  app.post(
    `${PORTAL_API_PREFIX}/activate-user-account`,
    { onRequest: portalRequestGuard(portalOrigin) },
    async (request) => {
      const body = parseInput(activateUserAccountBodySchema, request.body, 'missing_request_property');
      if (!(await consumeRateLimit(deps.db, { key: `activate:ip:${request.ip}`, ...PER_IP }))) {
        throw new AppError(429, 'too_many_requests', 'Too many attempts. Please try again later.');
      }
      const answer = await activateAccount(
        { ...deps, log: request.log },
        { email: body.email, verificationId: body.verificationid },
      );
      return ok(answer);
    },
  );
}
