import { passwordResetInitiateBodySchema, passwordResetSetNewBodySchema } from '@concierge/contracts';
import type { Kysely } from '@concierge/database';
import type { ServerConfig } from '../../config';
import type { ServerTables } from '../../db/schema';
import { callError } from '../../http/errors';
import { parseInput } from '../../http/parse-input';
import { enforceRateLimits } from '../../http/rate-limit';
import { rulesOf } from '../../http/rate-limit-rules';
import { initiatePasswordReset } from '../../password-reset/initiate-reset';
import { setNewPassword } from '../../password-reset/set-new-password';
import type { ProviderClient } from '../../provider-client/provider-client';
import type { TenantRegistry } from '../../tenants/tenant-registry';
import type { PortalCall } from '../portal-calls';

interface PasswordResetOptions {
  db: Kysely<ServerTables>;
  provider: ProviderClient;
  registry: TenantRegistry;
  config: Pick<ServerConfig, 'portalUrl' | 'runtime' | 'rateLimits'>;
}

/** spec §7: password-reset-initiate and password-reset-set-new (ARCHITECTURE "Password reset / unlock"). */
export function passwordResetCalls(options: PasswordResetOptions): {
  'password-reset-initiate': PortalCall<'password-reset-initiate'>;
  'password-reset-set-new': PortalCall<'password-reset-set-new'>;
} {
  const { db, provider, registry, config } = options;

  const initiate: PortalCall<'password-reset-initiate'> = async (request, input) => {
    const body = parseInput(passwordResetInitiateBodySchema, input);
    const tenant = registry.resolve({
      subdomain: body.subdomain ?? queryOf(request).subdomain,
      host: request.hostname,
      fallbackEnvironment: config.runtime.env,
    });
    await initiatePasswordReset(
      { db, provider, log: request.log, config },
      {
        requestId: body.requestId,
        email: body.email,
        acceptLanguage: request.headers['accept-language'],
        ip: request.ip,
        client: { clientId: tenant.clientId, redirectUri: tenant.loginRedirectUri },
      },
    );
    // The same answer for every e-mail: known, unknown or rate-limited (ARCHITECTURE §6).
    return {};
  };

  const setNew: PortalCall<'password-reset-set-new'> = async (request, input) => {
    await enforceRateLimits(
      db,
      rulesOf(config.rateLimits.resetSetNew, { address: request.ip }),
      'Too many attempts. Try again later.',
    );
    const body = parseInput(passwordResetSetNewBodySchema, input);
    // Checked here too, so that a mismatch never reaches the provider.
    if (body.password !== body.confirmpassword) {
      throw callError(
        'password-reset-set-new',
        400,
        'password_mismatch',
        'New password and password confirmation do not match.',
      );
    }
    await setNewPassword(
      { db, provider, log: request.log, config },
      {
        resetRequestId: body.resetRequestId,
        exchangeId: body.exchangeId,
        password: body.password,
        confirmPassword: body.confirmpassword,
      },
    );
    return { redirect_uri: successPageUrl(queryOf(request).subdomain, request.hostname) };
  };

  /**
   * The portal's success page, built from configuration and the registry only — never from a URL in
   * the input. The subdomain goes along only when the request named a registry tenant (query or
   * host): otherwise the portal adds the tenant it knows, where an environment default put here
   * would show the wrong brand.
   */
  function successPageUrl(subdomain: unknown, host: string): string {
    const tenant = registry.resolve({ subdomain, host, fallbackEnvironment: config.runtime.env });
    const url = new URL('/password-set-success', config.portalUrl);
    if (tenant.isRequested) url.searchParams.set('subdomain', tenant.subdomain);
    return url.href;
  }

  return { 'password-reset-initiate': initiate, 'password-reset-set-new': setNew };
}

const queryOf = (request: { query: unknown }) => request.query as { subdomain?: unknown };
