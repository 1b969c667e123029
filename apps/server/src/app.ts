import { CONSOLE_PATH, failure } from '@concierge/contracts';
import type { Kysely } from '@concierge/database';
import {
  clientErrorHandler,
  installHttpMetrics,
  installRequestId,
  type LogSettings,
  requestIdOf,
} from '@concierge/observability';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { CounterWatch } from './accounts/protection/counter-watch';
import { createBackgroundJobs } from './background-jobs';
import type { ServerConfig } from './config';
import type { ConsoleBuild } from './console/console-document';
import type { ServerTables } from './db/schema';
import { installDrain } from './http/drain';
import { installErrorHandler } from './http/errors';
import { installFormTokens } from './http/form-tokens';
import { installJsonNoStore } from './http/json-cache-control';
import { answerFrameworkError, installSafeTextGuard } from './http/safe-text-guard';
import { ASSETS_PREFIX, securityHeaders, securityHeadersOf } from './http/security-headers';
import type { MailTransport } from './mail/mail-transport';
import { buildInfoOf } from './observability/build-info';
import { installServerRequestLog, PROBES, serverLoggerOptions } from './observability/logging';
import { ServerMetrics } from './observability/metrics';
import type { Tracing } from './observability/tracing';
import { ConsoleSignIn } from './provider-client/console-sign-in';
import type { ProviderClient } from './provider-client/provider-client';
import { invitationOnArrival } from './registration/invitation-on-arrival';
import { ADMIN_API_PREFIX, adminRoutes } from './routes/admin';
import { brandRoutes } from './routes/brand';
import { activateUserAccountCall } from './routes/cidaas-webhook/activate-user-account';
import { passwordResetCalls } from './routes/cidaas-webhook/password-reset';
import { providerEventRoutes } from './routes/cidaas-webhook/provider-events';
import { registerUserCall } from './routes/cidaas-webhook/register-user';
import { requestNewInvitationCall } from './routes/cidaas-webhook/request-new-invitation';
import { resendActivationCall } from './routes/cidaas-webhook/resend-activation';
import { consoleAdminActor, consolePreviewCheck } from './routes/console/console-context';
import { consoleRoutes } from './routes/console/console-routes';
import { failedLoginCounterRoute } from './routes/failed-login-counter';
import { healthRoutes } from './routes/health';
import { loginWithoutRequestRoute } from './routes/login-without-request';
import { type PortalCalls, portalCallRoutes } from './routes/portal-calls';
import { portalFormRoutes } from './routes/portal-forms';
import { portalPageRoutes, renderPortalPage } from './routes/portal-pages';
import { runtimeConfigRoute } from './routes/runtime-config';
import { renderErrorPage, wantsPage } from './ssr/error-page';
import { FreshRequestLimit } from './ssr/fresh-request-limit';
import { PageSignInRequests } from './ssr/page-sign-in-request';
import { PageTemplates } from './ssr/page-templates';
import type { PortalBuild } from './ssr/portal-bundle';
import { type BrandPreviewCheck, BrandPreviews } from './tenants/brand-preview';
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
  /** The built console (console/console-document.ts), when the configuration has one (CONSOLE_CLIENT_ID). */
  console?: ConsoleBuild;
  /** The metrics the provider client reports into too (its observer); else the server makes its own. */
  metrics?: ServerMetrics;
  /** Where log lines go instead of standard output (tests). */
  logStream?: LogSettings['stream'];
  /**
   * OpenTelemetry traces: a span per request (the database and the provider client get the same
   * object, for theirs); unset, the server makes none and installs no hook for them.
   */
  tracing?: Tracing;
  /**
   * Whether a request's console session may preview this tenant's brand drafts
   * (`?brandPreview=<revision>`, tenants/brand-preview.ts); unset, nobody may.
   */
  mayPreviewBrand?: BrandPreviewCheck;
}

/** The whole server as one Fastify instance, built from its parts; tests drive it with inject(). */
export async function buildServer(config: ServerConfig, deps: ServerDependencies): Promise<FastifyInstance> {
  const { trustProxy } = config;
  const app = Fastify({
    // JSON lines without secrets, one per request (observability/logging.ts, docs/operations.md).
    logger: serverLoggerOptions({
      level: config.logLevel,
      isProduction: config.isProduction,
      secretHeaders: [config.webhook.header],
      stream: deps.logStream,
    }),
    // Fastify's own request lines off: installRequestLog writes one per request, with more in it.
    logController: new LogController({ disableRequestLogging: true }),
    // nginx's X-Request-Id when it is a safe token, else a random UUID: ids unique across instances.
    genReqId: requestIdOf,
    // Fastify's types take no hop count, its proxy-addr does: the same as a function of the hop.
    trustProxy:
      typeof trustProxy === 'number' ? (_address: string, hop: number) => hop < trustProxy : trustProxy,
    // A request that reaches an instance while it closes (after its drain) is still answered: its
    // database stays open until the server has closed (main.ts), and a 503 here would reach the
    // visitor, since a proxy does not send a POST that was answered on to another instance.
    return503OnClosing: false,
    bodyLimit: 64 * 1024,
    frameworkErrors: answerFrameworkError,
    // What Node refuses before Fastify sees a request, answered with the API's envelope and the
    // helmet headers every other answer of this instance carries.
    clientErrorHandler: clientErrorHandler({
      envelope: (status, message) => failure(status, 'invalid_request', message),
      headers: securityHeadersOf,
    }),
  });
  // First of the hooks: every answer carries the id of its log line, also one a guard gives early.
  installRequestId(app);
  // Next: the request's span is the active context for every later hook, the handler and its calls.
  deps.tracing?.installRequestSpans(app, { skipRoutes: PROBES });
  const metrics = deps.metrics ?? new ServerMetrics();
  metrics.setBuild(buildInfoOf(config.buildCommit));
  metrics.log = app.log;
  metrics.watchDatabase(deps.db);
  app.decorate('metrics', metrics);
  installHttpMetrics(app, metrics);
  installServerRequestLog(app, (subdomain) => deps.registry.bySubdomain(subdomain) !== undefined);
  installSafeTextGuard(app);
  installJsonNoStore(app);
  securityHeaders(app, config, () => deps.registry.portalOrigins(), [deps.portal.startScript.hash]);
  const freshRequestLimit = new FreshRequestLimit(config.signInRequestsPerAddressPerMinute);
  const consoleLifetime = config.console && { idleMs: config.console.idleMs, maxMs: config.console.maxMs };
  // The console's signed-in users preview their tenants' brand drafts (routes/console/).
  const brandPreviews = new BrandPreviews(
    deps.db,
    deps.mayPreviewBrand ??
      (consoleLifetime ? consolePreviewCheck({ db: deps.db, config, lifetime: consoleLifetime }) : undefined),
  );
  const pages = {
    build: deps.portal,
    runtime: config.runtime,
    registry: deps.registry,
    signInRequests: new SignInRequests(deps.db),
    pageSignInRequests: new PageSignInRequests(deps.provider),
    pageTemplates: new PageTemplates(),
    mayObtainFreshRequest: (ip: string) => freshRequestLimit.take(ip),
    arrivalOutcome: async (path: string, query: Record<string, unknown>) =>
      path === '/register' ? invitationOnArrival(deps.db, query) : undefined,
    brandPreviews,
  };

  installErrorHandler(app, {
    errorPage: {
      wanted: wantsPage,
      render: (request, kind, referenceNumber) => renderErrorPage(request, pages, kind, referenceNumber),
    },
  });
  const drain = installDrain(app);
  await installFormTokens(app, {
    secrets: config.formSecrets,
    isHttps: config.portalUrl.startsWith('https:'),
  });

  await app.register(healthRoutes, { db: deps.db, drain });
  await app.register(runtimeConfigRoute, { runtime: config.runtime, registry: deps.registry });
  await app.register(portalPageRoutes, pages);
  await app.register(loginWithoutRequestRoute);
  await app.register(brandRoutes, {
    registry: deps.registry,
    fallbackEnvironment: config.runtime.env,
    previews: brandPreviews,
  });
  await app.register(providerEventRoutes, {
    db: deps.db,
    registry: deps.registry,
    provider: deps.provider,
    webhook: config.webhook,
    metrics,
  });
  const counterWatch = new CounterWatch(deps.db);
  app.addHook('onClose', async () => counterWatch.close());
  await app.register(failedLoginCounterRoute, {
    db: deps.db,
    registry: deps.registry,
    counterWatch,
    portalOrigin: config.portalUrl,
    rateLimits: config.rateLimits,
  });
  // Registration, activation, resend and reset (ARCHITECTURE "Registration", "Activation", "Resend
  // activation", "Password reset / unlock"), and asking for a new invitation (issue 30): each a JSON
  // call and a form without JavaScript.
  const accounts = { db: deps.db, provider: deps.provider, registry: deps.registry, config };
  const calls: PortalCalls = {
    'register-user': registerUserCall(accounts),
    'activate-user-account': activateUserAccountCall(accounts),
    'resend-account-activation-email': resendActivationCall(accounts),
    ...passwordResetCalls(accounts),
    'request-new-invitation': requestNewInvitationCall(accounts),
  };
  await app.register(portalCallRoutes, { calls, portalOrigin: config.portalUrl });
  await app.register(portalFormRoutes, { pages, calls });
  // Without a token (production without ADMIN_API_TOKEN) the admin API does not exist: 404.
  if (config.adminApiTokens.length > 0) {
    await app.register(adminRoutes, {
      prefix: ADMIN_API_PREFIX,
      db: deps.db,
      provider: deps.provider,
      registry: deps.registry,
      config,
      tokens: config.adminApiTokens,
      metrics,
      ...(consoleLifetime
        ? { consoleActor: consoleAdminActor({ db: deps.db, config, lifetime: consoleLifetime }) }
        : {}),
    });
  }
  if (config.console && consoleLifetime) {
    if (!deps.console) throw new Error('CONSOLE_CLIENT_ID is set, but the console build was not loaded');
    await app.register(consoleRoutes, {
      db: deps.db,
      provider: deps.provider,
      registry: deps.registry,
      config,
      build: deps.console,
      lifetime: consoleLifetime,
      signIn: new ConsoleSignIn({
        issuer: config.providerUrl,
        clientId: config.console.clientId,
        clientSecret: config.console.clientSecret,
        redirectUri: `${config.portalUrl}${CONSOLE_PATH}/callback`,
        signedOutUri: `${config.portalUrl}${CONSOLE_PATH}/signed-out`,
        timeoutMs: config.providerCalls.timeoutMs,
      }),
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
    prefix: ASSETS_PREFIX,
    // File names carry a content hash: they never change, so a validator or a range has no use.
    immutable: true,
    maxAge: '365d',
    etag: false,
    lastModified: false,
    acceptRanges: false,
    index: false,
    wildcard: false,
  });

  app.setNotFoundHandler(async (request, reply) => {
    if (wantsPage(request)) return renderPortalPage(pages, request, reply);
    return reply
      .status(404)
      .send(failure(404, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}`));
  });

  return app;
}
