import { type Kysely, openTestDatabase } from '@concierge/database';
import { type MailSink, startMailSink } from '@concierge/test-support';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../app';
import { loadConfig } from '../config';
import { loadConsoleBuild } from '../console/console-document';
import { migrations, SERVER_SCHEMA } from '../db/migrations';
import type { ServerTables } from '../db/schema';
import { createMailTransport } from '../mail/mail-transport';
import { ServerMetrics } from '../observability/metrics';
import type { Tracing } from '../observability/tracing';
import { ProviderClient } from '../provider-client/provider-client';
import { loadPortalBuild } from '../ssr/portal-bundle';
import { startBrandSync } from '../tenants/brand-sync';
import { loadTenantRegistry } from '../tenants/load-registry';
import { TEST_ADMIN_CLIENT } from './embedded-provider';
import { sharedProvider } from './shared-provider';

export interface TestServerOptions {
  /** true: the run's shared embedded provider (shared-provider.ts); or the one (or a proxy in front of one) at url. */
  provider?: true | { url: string; timeoutMs?: number };
  /** true: a real SMTP catcher of its own (smtp-server), closed on close; or this SMTP URL. */
  smtp?: true | { url: string };
  /** Where the server's log lines go (JSON, as in production), instead of standard output. */
  logStream?: { write(line: string): void };
  /** Another test server's database: several instances on one database, as behind a load balancer. */
  db?: Kysely<ServerTables>;
  /**
   * Brands published from the console taken as main.ts takes them (tenants/brand-sync.ts): a LISTEN
   * connection of its own, so only for the files that publish. Not with `db` (another server's).
   */
  brandSync?: true;
  /** Traces, for the requests, the statements on a database of its own and the provider calls. */
  tracing?: Tracing;
}

/** The real server on a real database (a schema of its own on the test run's PostgreSQL) and the built portal. */
export async function startTestServer(env: Record<string, string> = {}, options: TestServerOptions = {}) {
  const providerUrl =
    options.provider === true
      ? (await sharedProvider()).url
      : typeof options.provider === 'object'
        ? options.provider.url
        : undefined;
  const mailSink: MailSink | undefined = options.smtp === true ? await startMailSink() : undefined;
  const smtpUrl = mailSink?.url ?? (typeof options.smtp === 'object' ? options.smtp.url : undefined);
  const config = loadConfig({
    // A test run: the development defaults (config.ts); a test of a deployment's configuration
    // passes CONCIERGE_DEV: 'false' and everything a deployment sets.
    CONCIERGE_DEV: 'true',
    PORTAL_URL: 'http://portal.test',
    PROVIDER_URL: 'http://provider.test',
    LOG_LEVEL: 'warn',
    ...(providerUrl
      ? { PROVIDER_URL: providerUrl, PROVIDER_ADMIN_CLIENT_SECRET: TEST_ADMIN_CLIENT.clientSecret }
      : {}),
    ...(smtpUrl ? { SMTP_URL: smtpUrl } : {}),
    ...env,
  });
  const metrics = new ServerMetrics();
  const provider = new ProviderClient({
    baseUrl: config.providerUrl,
    ...config.providerAdmin,
    ...config.providerCalls,
    ...(typeof options.provider === 'object' && options.provider.timeoutMs
      ? { timeoutMs: options.provider.timeoutMs }
      : {}),
    observer: metrics.providerCallObserver,
    tracing: options.tracing,
  });
  const database = options.db
    ? { db: options.db, schema: undefined, url: undefined, close: async () => undefined }
    : await openTestDatabase<ServerTables>(SERVER_SCHEMA, migrations, { log: options.tracing?.statementLog });
  const registry = await loadTenantRegistry(config.tenantsFile, { portalUrl: config.portalUrl });
  const app: FastifyInstance = await buildServer(config, {
    db: database.db,
    portal: await loadPortalBuild(config.portalDistDir),
    ...(config.console ? { console: await loadConsoleBuild(config.console.distDir) } : {}),
    registry,
    provider,
    mailTransport: createMailTransport(config.mail),
    metrics,
    logStream: options.logStream,
    tracing: options.tracing,
  });
  const brandSync =
    options.brandSync && database.url && database.schema
      ? await startBrandSync({
          db: database.db,
          registry,
          databaseUrl: database.url,
          schema: database.schema,
          log: app.log,
        })
      : undefined;
  return {
    app,
    config,
    db: database.db,
    registry,
    /** The server's own provider client (for look-ups in tests). */
    provider,
    /** The SMTP catcher when options.smtp was true. */
    mailSink,
    async close() {
      await brandSync?.stop();
      await app.close();
      await database.close();
      await mailSink?.close();
    },
  };
}
