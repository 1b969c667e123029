import { ok, PORTAL_API_PREFIX, pickLanguage } from '@concierge/contracts';
import { noteForLog } from '@concierge/observability';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../http/errors';
import { portalRequestGuard } from '../../http/portal-request-guard';
import { consumeRateLimit } from '../../http/rate-limit';
import { parseRegisterBody } from '../../registration/register-body';
import { type RegisterUserDeps, registerUser } from '../../registration/register-user';

interface RegisterUserOptions extends Omit<RegisterUserDeps, 'log'> {
  portalOrigin: string;
}

// Each attempt costs the provider a look-up and maybe a password hash; people register once.
const PER_EMAIL = { limit: 10, windowSeconds: 15 * 60 };
const PER_IP = { limit: 30, windowSeconds: 15 * 60 };

/** spec §7 register-user: 200 `{sub, activationMailQueued}`, otherwise an envelope with a §8 code. */
export async function registerUserRoute(app: FastifyInstance, options: RegisterUserOptions) {
  const { portalOrigin, ...deps } = options;
  app.post(
    `${PORTAL_API_PREFIX}/register-user`,
    { onRequest: portalRequestGuard(portalOrigin) },
    async (request) => {
      const body = parseRegisterBody(request.body);
      const tenant = deps.registry.byClientId(body.clientid);
      if (!tenant)
        throw new AppError(400, 'missing_request_property', 'clientid: no tenant has this client id.');
      noteForLog(request, { tenant: tenant.subdomain });
      const isWithinLimits =
        (await consumeRateLimit(deps.db, { key: `register:ip:${request.ip}`, ...PER_IP })) &&
        (await consumeRateLimit(deps.db, { key: `register:email:${body.email}`, ...PER_EMAIL }));
      if (!isWithinLimits)
        throw new AppError(429, 'too_many_requests', 'Too many attempts. Please try again later.');
      const answer = await registerUser(
        { ...deps, log: request.log },
        {
          email: body.email,
          password: body.password,
          code: body.registrationcode,
          tenant: tenant.subdomain,
          client: deps.registry.signInClientOf(tenant),
          inviteId: body.invite_id,
          language: pickLanguage(request.headers['accept-language']),
        },
      );
      return ok(answer);
    },
  );
}
