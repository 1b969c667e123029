import { activateUserAccountBodySchema } from '@concierge/contracts';
import { type ActivateDeps, activateAccount } from '../../activation/activate-account';
import type { ServerConfig } from '../../config';
import { parseInput } from '../../http/parse-input';
import { enforceRateLimits } from '../../http/rate-limit';
import { rulesOf } from '../../http/rate-limit-rules';
import type { PortalCall } from '../portal-calls';

/** spec §7 activate-user-account: 200 `{isAlreadyActivated}`, otherwise an envelope (§8 verification codes). */
export function activateUserAccountCall(
  deps: Omit<ActivateDeps, 'log'> & { config: Pick<ServerConfig, 'rateLimits'> },
): PortalCall<'activate-user-account'> {
  return async (request, input) => {
    const body = parseInput(activateUserAccountBodySchema, input, 'missing_request_property');
    await enforceRateLimits(deps.db, rulesOf(deps.config.rateLimits.activation, { address: request.ip }));
    const answer = await activateAccount(
      { ...deps, log: request.log },
      { email: body.email, verificationId: body.verificationid },
    );
    return answer;
  };
}
