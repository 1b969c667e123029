import { failure } from '@concierge/contracts';
import type { Kysely } from '@concierge/database';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { createBackgroundJobs } from './background-jobs';
import type { ServerConfig } from './config';
import type { ServerTables } from './db/schema';
import { installErrorHandler } from './http/errors';
import { answerFrameworkError, installSafeTextGuard } from './http/safe-text-guard';
import { securityHeaders } from './http/security-headers';
import type { MailTransport } from './mail/mail-transport';
import type { ProviderClient } from './provider-client/provider-client';
import { ADMIN_API_PREFIX, adminRoutes } from './routes/admin';
import { brandRoutes } from './routes/brand';
import { activateUserAccountRoute } from './routes/cidaas-webhook/activate-user-account';
import { passwordResetRoutes } from './routes/cidaas-webhook/password-reset';
import { providerEventRoutes } from './routes/cidaas-webhook/provider-events';
import { registerUserRoute } from './routes/cidaas-webhook/register-user';
import { resendActivationRoute } from './routes/cidaas-webhook/resend-activation';
import { failedLoginCounterRoute } from './routes/failed-login-counter';
import { healthRoutes } from './routes/health';
import { portalPageRoutes, renderPortalPage } from './routes/portal-pages';
import { runtimeConfigRoute } from './routes/runtime-config';
import type { PortalBuild } from './ssr/portal-bundle';
import { SignInRequests } from './tenants/sign-in-requests';
import type { TenantRegistry } from './tenants/tenant-registry';

export interface ServerDependencies {
  db: Kysely<ServerTables>;
  portal: PortalBuild;
  registry: TenantRegistry;
  /** The one client of the identity provider's admin API. */
  provider: ProviderClient;
  /** Where the outbox sends e-mails (SMTP); the server closes it when it closes. */
  mailTransport: MailTransport;
}

/** The whole server as one Fastify instance, built from its parts; tests drive it with inject(). */
export async function buildServer(config: ServerConfig, deps: ServerDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Query strings carry reset ids and verification ids: request logs name the path only.
      serializers: {
        req: (request) => ({ method: request.method, path: request.url.split('?')[0], ip: request.ip }),
      },
    },
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
    frameworkErrors: answerFrameworkError,
  });
  installErrorHandler(app);
  installSafeTextGuard(app);
  await securityHeaders(app, config, deps.registry.portalOrigins());
  const pages = {
    build: deps.portal,
    runtime: config.runtime,
    registry: deps.registry,
    signInRequests: new SignInRequests(deps.db),
  };

  await app.register(healthRoutes, { db: deps.db });
  await app.register(runtimeConfigRoute, { runtime: config.runtime });
  await app.register(portalPageRoutes, pages);
  await app.register(brandRoutes, { registry: deps.registry, fallbackEnvironment: config.runtime.env });
  await app.register(providerEventRoutes, {
    db: deps.db,
    registry: deps.registry,
    provider: deps.provider,
    webhook: config.webhook,
  });
  await app.register(failedLoginCounterRoute, {
    db: deps.db,
    registry: deps.registry,
    portalOrigin: config.portalUrl,
  });
  await app.register(passwordResetRoutes, {
    db: deps.db,
    provider: deps.provider,
    registry: deps.registry,
    config,
  });
  // Registration, activation and resend (ARCHITECTURE "Registration", "Activation", "Resend activation").
  const accounts = { db: deps.db, provider: deps.provider, registry: deps.registry, config };
  await app.register(registerUserRoute, { ...accounts, portalOrigin: config.portalUrl });
  await app.register(activateUserAccountRoute, { ...accounts, portalOrigin: config.portalUrl });
  await app.register(resendActivationRoute, { ...accounts, portalOrigin: config.portalUrl });
  // Without a token (production without ADMIN_API_TOKEN) the admin API does not exist: 404.
  if (config.adminApiToken) {
    await app.register(adminRoutes, {
      prefix: ADMIN_API_PREFIX,
      db: deps.db,
      registry: deps.registry,
      config,
      token: config.adminApiToken,
    });
  }
  const backgroundJobs = createBackgroundJobs({
    ...accounts,
    mailTransport: deps.mailTransport,
    log: app.log,
  });
  app.decorate('backgroundJobs', backgroundJobs);
  app.addHook('onClose', async () => {
    await backgroundJobs.stop();
    deps.mailTransport.close();
  });
  await app.register(fastifyStatic, {
    root: `${deps.portal.clientDir}/assets`,
    // The build wrote .br and .gz beside each text asset (apps/portal/scripts/precompress.mjs).
    preCompressed: true,
    prefix: '/assets/',
    // File names carry a content hash: they never change.
    immutable: true,
    maxAge: '365d',
    index: false,
    wildcard: false,
  });

  app.setNotFoundHandler(async (request, reply) => {
    const wantsPage = request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');
    if (wantsPage) return renderPortalPage(pages, request, reply);
    return reply
      .status(404)
      .send(failure(404, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}`));
  });

  return app;
}
