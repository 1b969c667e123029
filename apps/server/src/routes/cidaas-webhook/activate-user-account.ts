import { activateUserAccountBodySchema } from '@concierge/contracts';
import { type ActivateDeps, activateAccount } from '../../activation/activate-account';
import { parseInput } from '../../http/parse-input';
import { enforceRateLimits } from '../../http/rate-limit';
import type { PortalCall } from '../portal-calls';

// Verification ids cannot be guessed; the limit keeps a flood away from the provider.
const PER_IP = { limit: 60, windowSeconds: 15 * 60 };

/** spec §7 activate-user-account: 200 `{isAlreadyActivated}`, otherwise an envelope (§8 verification codes). */
export function activateUserAccountCall(
  deps: Omit<ActivateDeps, 'log'>,
): PortalCall<'activate-user-account'> {
  return async (request, input) => {
    const body = parseInput(activateUserAccountBodySchema, input, 'missing_request_property');
    await enforceRateLimits(deps.db, [{ key: `activate:ip:${request.ip}`, ...PER_IP }]);
    const answer = await activateAccount(
      { ...deps, log: request.log },
      { email: body.email, verificationId: body.verificationid },
    );
    return answer;
  };
}
