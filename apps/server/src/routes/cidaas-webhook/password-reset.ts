import {
  ok,
  type PasswordResetSetNewAnswer,
  PORTAL_API_PREFIX,
  passwordResetInitiateBodySchema,
  passwordResetSetNewBodySchema,
} from '@concierge/contracts';
import type { Kysely } from '@concierge/database';
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../../config';
import type { ServerTables } from '../../db/schema';
import { AppError } from '../../http/errors';
import { parseInput } from '../../http/parse-input';
import { portalRequestGuard } from '../../http/portal-request-guard';
import { consumeRateLimit } from '../../http/rate-limit';
import { initiatePasswordReset } from '../../password-reset/initiate-reset';
import { setNewPassword } from '../../password-reset/set-new-password';
import type { ProviderClient } from '../../provider-client/provider-client';
import type { TenantRegistry } from '../../tenants/tenant-registry';

interface PasswordResetOptions {
  db: Kysely<ServerTables>;
  provider: ProviderClient;
  registry: TenantRegistry;
  config: Pick<ServerConfig, 'portalUrl' | 'runtime'>;
}

// Guessing exchange ids is hopeless, but each try costs the provider a password hash.
const SET_NEW_PER_IP = { limit: 20, windowSeconds: 15 * 60 };

/** spec §7: password-reset-initiate and password-reset-set-new (ARCHITECTURE "Password reset / unlock"). */
export async function passwordResetRoutes(app: FastifyInstance, options: PasswordResetOptions) {
  const { db, provider, registry, config } = options;
  const onRequest = portalRequestGuard(config.portalUrl);

  app.post<{ Querystring: { subdomain?: unknown } }>(
    `${PORTAL_API_PREFIX}/password-reset-initiate`,
    { onRequest },
    async (request) => {
      const body = parseInput(passwordResetInitiateBodySchema, request.body);
      const tenant = registry.resolve({
        subdomain: body.subdomain ?? request.query.subdomain,
        host: request.hostname,
        fallbackEnvironment: config.runtime.env,
      });
      await initiatePasswordReset(
        { db, provider, log: request.log },
        {
          requestId: body.requestId,
          email: body.email,
          acceptLanguage: request.headers['accept-language'],
          ip: request.ip,
          client: { clientId: tenant.clientId, redirectUri: tenant.loginRedirectUri },
        },
      );
      // The same answer for every e-mail: known, unknown or rate-limited (ARCHITECTURE §6).
      return ok({});
    },
  );

  app.post<{ Querystring: { subdomain?: unknown } }>(
    `${PORTAL_API_PREFIX}/password-reset-set-new`,
    { onRequest },
    async (request): Promise<ReturnType<typeof ok<PasswordResetSetNewAnswer>>> => {
      if (!(await consumeRateLimit(db, { key: `reset-set-new:ip:${request.ip}`, ...SET_NEW_PER_IP }))) {
        throw new AppError(429, 'too_many_requests', 'Too many attempts. Try again later.');
      }
      const body = parseInput(passwordResetSetNewBodySchema, request.body);
      // Checked here too, so that a mismatch never reaches the provider.
      if (body.password !== body.confirmpassword) {
        throw new AppError(400, 'password_mismatch', 'New password and password confirmation do not match.');
      }
      await setNewPassword(
        { db, provider, log: request.log },
        {
          resetRequestId: body.resetRequestId,
          exchangeId: body.exchangeId,
          password: body.password,
          confirmPassword: body.confirmpassword,
        },
      );
      return ok({ redirect_uri: successPageUrl(request.query.subdomain, request.hostname) });
    },
  );

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
}
