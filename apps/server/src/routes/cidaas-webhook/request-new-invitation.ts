import { normaliseEmail, requestNewInvitationBodySchema } from '@concierge/contracts';
import type { ServerConfig } from '../../config';
import { parseInput } from '../../http/parse-input';
import { enforceRateLimits } from '../../http/rate-limit';
import { rulesOf } from '../../http/rate-limit-rules';
import {
  type NewInvitationRequestDeps,
  requestNewInvitation,
} from '../../registration/new-invitation-request';
import type { PortalCall } from '../portal-calls';

/**
 * Issue 30, request-new-invitation: `{success:true, status:200, data:{}}` for every link, whether it
 * named an ended invitation (the request is recorded, the office told) or not (nothing is done).
 * Counted against the address and the e-mail it names before anything is looked up.
 */
export function requestNewInvitationCall(
  deps: NewInvitationRequestDeps & { config: Pick<ServerConfig, 'rateLimits'> },
): PortalCall<'request-new-invitation'> {
  return async (request, input) => {
    const body = parseInput(requestNewInvitationBodySchema, input, 'missing_request_property');
    await enforceRateLimits(
      deps.db,
      rulesOf(deps.config.rateLimits.newInvitationRequest, {
        address: request.ip,
        email: normaliseEmail(body.email),
      }),
    );
    await requestNewInvitation(deps, {
      inviteId: body.invite_id,
      code: body.registrationcode,
      email: body.email,
    });
    return {};
  };
}
