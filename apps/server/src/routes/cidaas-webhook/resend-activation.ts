import { pickLanguage, resendActivationBodySchema } from '@concierge/contracts';
import { type ResendDeps, resendActivation } from '../../activation/resend-activation';
import { parseInput } from '../../http/parse-input';
import type { PortalCall } from '../portal-calls';

/**
 * Every answer takes at least this long: the work behind it differs for an unknown, a pending and an
 * activated account (a provider look-up, a new link), and its time must not tell them apart.
 */
export const RESEND_MIN_DURATION_MS = 150;

/** spec §7 resend-account-activation-email: `{success:true, status:200, data:{}}` for every e-mail. */
export function resendActivationCall(
  deps: Omit<ResendDeps, 'log'>,
): PortalCall<'resend-account-activation-email'> {
  return async (request, input) => {
    const startedAt = Date.now();
    // A malformed address cannot have an account: refusing it tells nothing about anyone.
    const body = parseInput(resendActivationBodySchema, input, 'missing_request_property');
    // The page's tenant (body, else the address's query or host): a registry entry, never the input.
    const pageTenant = deps.registry.resolve({
      subdomain: body.subdomain ?? (request.query as { subdomain?: unknown }).subdomain,
      host: request.hostname,
      fallbackEnvironment: deps.config.runtime.env,
    });
    await resendActivation(
      { ...deps, log: request.log },
      {
        email: body.email,
        language: pickLanguage(request.headers['accept-language']),
        ip: request.ip,
        pageTenant: pageTenant.subdomain,
      },
    );
    const remaining = RESEND_MIN_DURATION_MS - (Date.now() - startedAt);
    if (remaining > 0) await new Promise((resolve) => setTimeout(resolve, remaining));
    return {};
  };
}
