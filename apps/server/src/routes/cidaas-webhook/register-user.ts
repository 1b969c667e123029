import { pickLanguage } from '@concierge/contracts';
import { noteForLog } from '@concierge/observability';
import type { ServerConfig } from '../../config';
import { callError } from '../../http/errors';
import { enforceRateLimits } from '../../http/rate-limit';
import { rulesOf } from '../../http/rate-limit-rules';
import { parseRegisterBody } from '../../registration/register-body';
import { type RegisterUserDeps, registerUser } from '../../registration/register-user';
import type { PortalCall } from '../portal-calls';

/** spec §7 register-user: 200 `{sub, activationMailQueued}`, otherwise an envelope with a §8 code. */
export function registerUserCall(
  deps: Omit<RegisterUserDeps, 'log'> & { config: Pick<ServerConfig, 'rateLimits'> },
): PortalCall<'register-user'> {
  return async (request, input) => {
    const body = parseRegisterBody(input);
    const tenant = deps.registry.byClientId(body.clientid);
    if (!tenant)
      throw callError(
        'register-user',
        400,
        'missing_request_property',
        'clientid: no tenant has this client id.',
      );
    noteForLog(request, { tenant: tenant.subdomain });
    await enforceRateLimits(
      deps.db,
      rulesOf(deps.config.rateLimits.registration, { address: request.ip, email: body.email }),
    );
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
    return answer;
  };
}
