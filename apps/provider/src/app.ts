import { failure, type WebhookEvent } from '@concierge/contracts';
import { loggableError } from '@concierge/database';
import {
  clientErrorHandler,
  installHttpMetrics,
  installRequestId,
  installRequestLog,
  requestIdOf,
} from '@concierge/observability';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import type { ProviderConfig } from './config';
import type { ProviderDatabase } from './db/schema';
import type { MailMessage } from './mail/mail-message';
import { createMailSender } from './mail/mail-sender';
import { ProviderMetrics, routeOf } from './observability/metrics';
import { deleteExpiredPayloads } from './oidc/adapter';
import { createClientDirectory } from './oidc/clients';
import { createOidcProvider } from './oidc/provider';
import { deleteSettledMessages } from './outbox/outbox';
import { OutboxRelay } from './outbox/outbox-relay';
import type { RetrySchedule } from './outbox/retry-schedule';
import { deleteOldResetRequests } from './reset/reset-requests';
import { adminUserRoutes, selfServiceProfileRoutes } from './routes/admin-users';
import { AUTHZ_REQUEST_PREFIX, authzGenerateRoutes } from './routes/authz-generate';
import { checkSessionRoutes } from './routes/check-session';
import { CIDAAS_CODES } from './routes/cidaas-codes';
import type { RouteDeps } from './routes/deps';
import { envelopeErrorHandler } from './routes/envelope-errors';
import { healthRoutes } from './routes/health';
import { loginRoutes } from './routes/login';
import { oidcForwardRoutes } from './routes/oidc-forward';
import { passwordResetRoutes } from './routes/password-reset';
import { PUBLIC_PREFIX, publicInfoRoutes } from './routes/public-info';
import { registerRoutes } from './routes/register';
import { answerFrameworkError, installSafeTextGuard } from './routes/safe-text-guard';
import { installSecurityHeaders, SECURITY_HEADERS } from './routes/security-headers';
import { USER_ACTIONS_PREFIX, userExistenceRoutes } from './routes/user-existence';
import { userLookupRoutes } from './routes/user-lookup';
import { createWebhookSender } from './webhooks/webhook-sender';

const HOUSEKEEPING_INTERVAL_MS = 10 * 60 * 1000;

export interface ProviderAppOptions {
  /** Fastify logger (observability/logging.ts providerLoggerOptions); off by default (tests). */
  logger?: FastifyServerOptions['logger'];
  /** Outbox retry timing; tests shorten it. */
  retrySchedule?: RetrySchedule;
}

/**
 * The whole provider as one Fastify instance, not yet listening: the hosted-page and admin routes of
 * cidaas, and oidc-provider behind them for every OIDC endpoint. The outbox relays (webhooks to the
 * server, e-mails) run from ready to close.
 */
export async function createProviderApp(
  config: ProviderConfig,
  database: ProviderDatabase,
  options: ProviderAppOptions = {},
): Promise<FastifyInstance> {
  const { db } = database;
  const clients = createClientDirectory(config.clients);
  const provider = await createOidcProvider(config, db, clients);
  const app = Fastify({
    logger: options.logger ?? false,
    // Fastify's own request lines off: installRequestLog writes one per request, with more in it.
    logController: new LogController({ disableRequestLogging: true }),
    // A caller's safe X-Request-Id, else a random UUID: as the server's (packages/observability).
    genReqId: requestIdOf,
    frameworkErrors: answerFrameworkError,
    // What Node refuses before Fastify sees a request, answered as cidaas refuses a malformed one,
    // with the headers of every answer but the session check page's.
    clientErrorHandler: clientErrorHandler({
      envelope: (status, message) =>
        failure(status, CIDAAS_CODES.MALFORMED_REQUEST, message, 'RequestException'),
      headers: () => SECURITY_HEADERS,
    }),
  });
  // Only name and SQLSTATE of a database error: its detail may quote row values (e-mails, tokens).
  provider.on('server_error', (_ctx, error) =>
    app.log.error({ err: loggableError(error) }, 'oidc-provider server error'),
  );

  const webhooks = new OutboxRelay<WebhookEvent>({
    db,
    table: 'webhook_outbox',
    send: createWebhookSender(config.webhook),
    log: app.log,
    describe: (event) => ({ eventtype: event.eventtype }),
    schedule: options.retrySchedule,
  });
  const mailSender = createMailSender(config.mail);
  const mail = new OutboxRelay<MailMessage>({
    db,
    table: 'mail_outbox',
    send: mailSender.send,
    log: app.log,
    isPayloadErasedWhenSettled: true,
    schedule: options.retrySchedule,
  });

  // First of the hooks, on the raw response: oidc-provider's answers carry the id too.
  installRequestId(app);
  const metrics = new ProviderMetrics();
  metrics.log = app.log;
  metrics.watchDatabase(db);
  app.decorate('metrics', metrics);
  installHttpMetrics(app, metrics, routeOf);
  installRequestLog(app, { probes: ['/healthz'], routeOf });

  const deps: RouteDeps = { config, db, provider, clients, webhooks, mail, metrics };
  app.setErrorHandler(envelopeErrorHandler);
  installSafeTextGuard(app);
  installSecurityHeaders(app);
  await app.register(healthRoutes, deps);
  await app.register(loginRoutes, deps);
  await app.register(checkSessionRoutes, deps);
  await app.register(authzGenerateRoutes, { ...deps, prefix: AUTHZ_REQUEST_PREFIX });
  await app.register(userExistenceRoutes, { ...deps, prefix: USER_ACTIONS_PREFIX });
  await app.register(publicInfoRoutes, { ...deps, prefix: PUBLIC_PREFIX });
  await app.register(registerRoutes, deps);
  await app.register(adminUserRoutes, deps);
  await app.register(selfServiceProfileRoutes, deps);
  await app.register(userLookupRoutes, deps);
  await app.register(passwordResetRoutes, deps);
  await app.register(oidcForwardRoutes, deps);

  const housekeeping = setInterval(() => {
    Promise.all([
      deleteExpiredPayloads(db),
      deleteSettledMessages(db, 'webhook_outbox'),
      deleteSettledMessages(db, 'mail_outbox'),
      deleteOldResetRequests(db),
    ]).catch((error: unknown) => app.log.warn({ err: loggableError(error) }, 'housekeeping failed'));
  }, HOUSEKEEPING_INTERVAL_MS);
  housekeeping.unref();
  app.addHook('onReady', async () => {
    webhooks.start();
    mail.start();
  });
  app.addHook('onClose', async () => {
    clearInterval(housekeeping);
    await Promise.all([webhooks.stop(), mail.stop()]);
    mailSender.close();
  });
  return app;
}
