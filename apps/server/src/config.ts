import { isIP } from 'node:net';
import { fileURLToPath } from 'node:url';
import {
  type ConfigurationReference,
  DEFAULT_RESET_LINK_LIFETIME_MINUTES,
  DEVELOPMENT_SWITCH,
  developmentSwitchOf,
  ENVIRONMENTS,
  type RuntimeConfig,
  secretWeakness,
  type VariableDescriptions,
} from '@concierge/contracts';
import { z } from 'zod';
import { type RateLimits, scaleAddressLimits } from './http/rate-limit-rules';

const origin = z
  .url()
  .transform((value) => new URL(value).origin)
  .refine((value) => /^https?:/.test(value), 'must be an http(s) origin');

/**
 * A secret that may be rotated: one value, or two separated by a comma while it is (the new one
 * beside the old one, docs/operations.md, "Rotating a secret"). Each is accepted, each must be long.
 */
const rotatableSecret = z
  .string()
  .transform((value) => splitSecrets(value))
  .pipe(z.array(z.string().min(16, 'each must be at least 16 characters')).min(1));

function splitSecrets(value: string): string[] {
  return value.split(',').map((secret) => secret.trim());
}

/** An http(s) URL kept as given (a collector's endpoint). */
const httpUrl = z.url().refine((value) => /^https?:\/\//i.test(value), 'must be an http(s) URL');

/** The repository's tenant registry: TENANTS_FILE's default (also the CLI's `tenants check`). */
export const DEFAULT_TENANTS_FILE = fileURLToPath(new URL('../../../tenants/tenants.json', import.meta.url));

const envSchema = z.object({
  NODE_ENV: z.string().default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  PORTAL_URL: origin,
  PROVIDER_URL: origin,
  REST_API_BASE_URL: origin.optional(),
  APP_ENV: z.enum(ENVIRONMENTS),
  PROPERTY_PORTAL_CLIENT_ID: z.string().min(1).default('property-portal-demo'),
  TENANTS_FILE: z.string().default(DEFAULT_TENANTS_FILE),
  PROVIDER_ADMIN_CLIENT_ID: z.string().min(1).default('concierge-server'),
  PROVIDER_ADMIN_CLIENT_SECRET: z.string().min(16, 'must be at least 16 characters'),
  /** The key the provider's webhooks carry (two while it is rotated), and the header it comes in. */
  WEBHOOK_API_KEY: rotatableSecret,
  WEBHOOK_API_KEY_HEADER: z.string().min(1).default('X-API-Key'),
  /**
   * Signs the cookie behind the forms' tokens (issue 25), shared by every instance. Several,
   * separated by commas, during a rotation: the first signs, each is accepted.
   */
  FORM_SECRET: rotatableSecret,
  SMTP_URL: z.url(),
  MAIL_FROM: z.string().min(3),
  ACTIVATION_LINK_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(72),
  /**
   * How long a password-reset link lives, in minutes, as the provider is set up: cidaas's reset-link
   * lifetime, which the operator sets there and copies here (docs/cidaas-setup.md, section 7). The
   * server enforces nothing with it: the portal's pages say it (the e-mail is the provider's). A
   * deployment must set it (only the operator knows cidaas's value); in development it is the
   * embedded provider's, which reads the same variable and enforces it.
   */
  RESET_LINK_LIFETIME_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60),
  /**
   * Bearer token of the operators' admin API (/api/admin), two while it is rotated; without it
   * outside development that API is off.
   */
  ADMIN_API_TOKEN: rotatableSecret.optional(),
  /**
   * The console's client at the provider (a confidential client with the authorization code flow and
   * PKCE, its redirect URI `PORTAL_URL/console/callback`); without it outside development the console
   * is off (404). Its secret must be set with it.
   */
  CONSOLE_CLIENT_ID: z.string().min(1).max(200).optional(),
  CONSOLE_CLIENT_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  /** The provider roles that open the console (console/console-roles.ts). */
  CONSOLE_OPERATOR_ROLE: z.string().min(1).max(100).default('concierge_operator'),
  CONSOLE_MANAGER_ROLE: z.string().min(1).max(100).default('concierge_manager'),
  /** A console session ends after this many idle minutes, and in any case this many hours after sign-in. */
  CONSOLE_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(30),
  CONSOLE_SESSION_HOURS: z.coerce.number().int().min(1).max(24).default(10),
  PORTAL_DIST_DIR: z.string().default(fileURLToPath(new URL('../../portal/dist', import.meta.url))),
  CONSOLE_DIST_DIR: z.string().default(fileURLToPath(new URL('../../console/dist', import.meta.url))),
  /** Whose X-Forwarded-* to believe (trustProxyOf): `false`, `true`, a hop count, or proxy addresses. */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value, context) => {
      const trust = trustProxyOf(value);
      if (trust === undefined) {
        context.addIssue({
          code: 'custom',
          message: 'must be true, false, a number of proxies, or addresses/CIDR ranges separated by commas',
        });
        return z.NEVER;
      }
      return trust;
    }),
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(300).default(5),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Prometheus metrics on a port of their own (docs/operations.md, "Metrics"); unset: no metrics port. */
  METRICS_PORT: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce.number().int().min(1).max(65535).optional(),
  ),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** Provider calls (docs/operations.md, "Provider calls"). */
  PROVIDER_CALL_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  PROVIDER_CALL_RETRIES: z.coerce.number().int().min(0).max(3).default(1),
  PROVIDER_CALL_RETRY_BACKOFF_MS: z.coerce.number().int().min(0).max(5000).default(200),
  PROVIDER_BREAKER_THRESHOLD: z.coerce.number().int().min(0).max(1000).default(5),
  PROVIDER_BREAKER_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  PROVIDER_BREAKER_COOLDOWN_SECONDS: z.coerce.number().min(0.01).max(3600).default(30),
  /** Admin API quotas per tenant and clock hour (routes/admin.ts). */
  // A page opened without a usable request id gets a fresh one from the provider (ssr/fresh-request-limit.ts).
  SIGN_IN_REQUESTS_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(120),
  // Scales the per-address limits of http/rate-limit-rules.ts.
  ADDRESS_LIMITS_FACTOR: z.coerce.number().min(0.1).max(1000).default(1),
  ADMIN_CODES_PER_TENANT_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  ADMIN_INVITATIONS_PER_TENANT_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  /** How many days an invitation and its code register (admin/invitation-expiry.ts). */
  INVITATION_VALIDITY_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  SENT_MAIL_RETENTION_DAYS: z.coerce.number().int().min(0).max(365).default(7),
  /** How long housekeeping keeps a row of the admin actions' audit log (admin/audit-log.ts). */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(400),
  BUILD_COMMIT: z.string().max(100).default('unknown'),
  /**
   * OpenTelemetry traces (observability/tracing.ts), by the standard variables: off unless an
   * endpoint is set. The signal's own endpoint is taken as it is, the general one gets `/v1/traces`.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl.optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: httpUrl.optional(),
  OTEL_SERVICE_NAME: z.string().min(1).max(200).default('concierge-server'),
});

/**
 * What docs/operations.md says of each variable, beside the schema: its table is generated from this,
 * the schema's defaults and the lists below (`npm run config-tables`). A variable added to the schema
 * does not compile until it is described here.
 */
const VARIABLES: VariableDescriptions<typeof envSchema, 'CONCIERGE_DEV' | 'DATABASE_URL'> = {
  CONCIERGE_DEV:
    '`true` only for a development run (`npm start`, `npm run cluster`, the tests and the bench set it): the development defaults of this table; unset or `false`: a deployment, whatever `NODE_ENV` or `APP_ENV` say',
  DATABASE_URL:
    'the one PostgreSQL database of every instance and the provider, a schema each ([PostgreSQL](#postgresql-pool-and-outages)); `npm start` sets it for its embedded server',
  NODE_ENV:
    "`production`: React's production build, and JSON logs even on a terminal in a development run ([Logs](#logs)); it does not decide the development defaults",
  HOST: 'the address the server listens on',
  PORT: 'the port the server listens on',
  PORTAL_URL:
    "the portal's public `https://` origin, as browsers reach it ([Behind a load balancer](#behind-a-load-balancer))",
  PROVIDER_URL:
    "the identity provider's base URL: the cidaas tenant's, or the embedded provider's (`cidaasBaseUrl` in `/config.json`)",
  REST_API_BASE_URL: {
    description:
      'the REST API of the failed-login counter (`restApiBaseUrl` in `/config.json`): this server unless configured otherwise',
    shownDefault: 'the value of `PORTAL_URL`',
  },
  APP_ENV:
    "`dev`, `test` or `prod`: `prod` in production (or `test` for a staging system); the tenants' fallback environment and `env` in `/config.json`",
  PROPERTY_PORTAL_CLIENT_ID:
    'the OIDC client id of the property portal (`propertyPortalClientId` in `/config.json`)',
  TENANTS_FILE:
    "the tenant registry; its folder holds the tenants' logos and stylesheets; a changed file is loaded without a restart ([Tenants and brands](tenants.md))",
  PROVIDER_ADMIN_CLIENT_ID: "the server's client-credentials client at the provider, for its admin API",
  PROVIDER_ADMIN_CLIENT_SECRET: "that client's secret ([cidaas set-up](cidaas-setup.md))",
  CONSOLE_CLIENT_ID:
    "the console's OIDC client at the provider (authorization code with PKCE, redirect URI `PORTAL_URL/console/callback`); unset: no console ([cidaas set-up](cidaas-setup.md#10-console))",
  CONSOLE_CLIENT_SECRET: "that client's secret; set with `CONSOLE_CLIENT_ID`",
  CONSOLE_OPERATOR_ROLE: 'the provider role of an operator: the console shows them every tenant',
  CONSOLE_MANAGER_ROLE:
    'the provider role of a property manager: the console shows them the tenants named by their provider groups',
  CONSOLE_IDLE_MINUTES: 'a console session ends after this many minutes without a request',
  CONSOLE_SESSION_HOURS: 'and in any case this many hours after its sign-in',
  CONSOLE_DIST_DIR: "the console's build (`npm run build`)",
  WEBHOOK_API_KEY:
    "the key cidaas's webhooks carry ([cidaas set-up](cidaas-setup.md)); during a rotation two, separated by a comma — both are accepted ([Rotating a secret](#rotating-a-secret))",
  WEBHOOK_API_KEY_HEADER: 'the header the webhooks carry their key in',
  FORM_SECRET:
    "signs the cookie behind the forms' tokens, the same on every instance; during a rotation two, separated by a comma — the first signs, both are accepted",
  SMTP_URL:
    'the SMTP relay (`smtp://` or `smtps://`, user and password in the URL; the start line masks the password)',
  MAIL_FROM: 'the sender of the e-mails, e.g. `"Example" <no-reply@example.ch>`',
  ACTIVATION_LINK_TTL_HOURS:
    'how long an activation link works, in hours (1 to 720); the activation e-mail and the registration page say it',
  RESET_LINK_LIFETIME_MINUTES:
    "how long cidaas's reset links work, in minutes, as set up there ([cidaas set-up](cidaas-setup.md#7-password-reset)); the reset page says it, the server enforces nothing with it. In development the embedded provider's, which reads the same variable and enforces it",
  ADMIN_API_TOKEN:
    "bearer token of the operators' admin API (`/api/admin`) and its CLI; unset, the admin API is off (404) outside development; during a rotation two, separated by a comma — both are accepted ([Rotating a secret](#rotating-a-secret))",
  PORTAL_DIST_DIR: 'the built portal',
  TRUST_PROXY:
    "whose `X-Forwarded-*` to believe: `false`; the load balancer's addresses or CIDR ranges, separated by commas; `true` (every hop: only behind a proxy that overwrites the header) or a hop count ([Behind a load balancer](#behind-a-load-balancer))",
  SHUTDOWN_DRAIN_SECONDS:
    'on SIGTERM, how long to keep answering, with `/readyz` at 503, before it stops listening; 0 to 300 ([Shutdown](#health-readiness-and-shutdown))',
  LOG_LEVEL: '`fatal` … `trace`, or `silent` ([Logs](#logs))',
  METRICS_PORT: {
    description:
      'Prometheus `/metrics` on this port of its own, never on the public one ([Metrics](#metrics))',
    shownDefault: 'off',
  },
  METRICS_HOST: 'the address the metrics port binds to (`0.0.0.0` in a container)',
  PROVIDER_CALL_TIMEOUT_MS:
    'timeout of each attempt of a provider call, in ms, 100 to 60000 ([Provider calls](#provider-calls))',
  PROVIDER_CALL_RETRIES: 'further attempts of an idempotent provider call after no answer or a 5xx, 0 to 3',
  PROVIDER_CALL_RETRY_BACKOFF_MS: 'wait before the first further attempt, in ms (doubling, with jitter)',
  PROVIDER_BREAKER_THRESHOLD: 'provider failures in a row that open the circuit breaker; `0`: never',
  PROVIDER_BREAKER_WINDOW_SECONDS: '… within this long of the first of them',
  PROVIDER_BREAKER_COOLDOWN_SECONDS: 'how long the open breaker makes calls fail fast before one trial call',
  SIGN_IN_REQUESTS_PER_ADDRESS_PER_MINUTE:
    "fresh sign-in requests (`authz/generate`) one client address may have each instance obtain a minute, for pages opened without a usable request id; counted in memory; beyond, the page answers 429, too many attempts. Behind a shared address (a carrier's NAT, an estate's Wi-Fi) raise it",
  ADDRESS_LIMITS_FACTOR:
    "multiplies every per-address rate limit of the portal's calls (the failed-login counter, registration, activation, resend, password reset, asking for a new invitation; the table with the reason for each is apps/server/src/http/rate-limit-rules.ts). Where many tenants share one public address (a carrier's NAT, an estate's Wi-Fi) raise it; the limits per e-mail and per registration code, which count the person rather than the address, stay as they are",
  ADMIN_CODES_PER_TENANT_PER_HOUR:
    'registration codes the admin API makes per tenant and clock hour; beyond, 429 ([Housekeeping and quotas](#housekeeping-and-quotas))',
  ADMIN_INVITATIONS_PER_TENANT_PER_HOUR:
    'invitations the admin API makes (or sends again) per tenant and clock hour; beyond, 429',
  INVITATION_VALIDITY_DAYS:
    'how many days an invitation and its registration code register, 1 to 365, counted from the day it is sent: it is valid up to and including the last of them, to midnight in Zurich, the day its e-mail names; afterwards its link says it has expired and offers to ask the property manager for a new one',
  SENT_MAIL_RETENTION_DAYS:
    "how long housekeeping keeps a sent e-mail's outbox row (recipient and subject; the body is emptied once sent), 0 to 365 days ([Housekeeping and quotas](#housekeeping-and-quotas))",
  AUDIT_RETENTION_DAYS:
    "how long housekeeping keeps a row of the admin API's audit log, 1 to 3650 days ([Audit log](#audit-log-of-the-admin-api))",
  BUILD_COMMIT:
    'the commit the build was made from, set by whoever builds a release: `concierge_build_info` and the start line ([Logs](#logs))',
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    description:
      "the OpenTelemetry collector's OTLP/HTTP base URL (e.g. `http://otel-collector:4318`); traces go to its `/v1/traces`. Unset, with the next one unset too: no tracing at all ([Traces](#traces))",
    shownDefault: 'off',
  },
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: {
    description:
      'the full URL traces go to instead, taken as it is (e.g. `http://otel-collector:4318/v1/traces`)',
    shownDefault: 'off',
  },
  OTEL_SERVICE_NAME: "`service.name` of the traces (`service.version` is the server package's version)",
};

export interface ServerConfig {
  host: string;
  port: number;
  /** JSON logs even on a terminal: every deployment, and a development run with NODE_ENV=production. */
  isProduction: boolean;
  /** Fastify's trustProxy: which proxies' X-Forwarded-For/-Proto/-Host count (trustProxyOf). */
  trustProxy: boolean | number | string[];
  /** SIGTERM: how long to keep answering, not ready, before closing. */
  shutdownDrainMs: number;
  logLevel: string;
  portalUrl: string;
  providerUrl: string;
  tenantsFile: string;
  runtime: RuntimeConfig;
  portalDistDir: string;
  providerAdmin: { clientId: string; clientSecret: string };
  /** The webhook's accepted keys (two while one is rotated) and the header they come in. */
  webhook: { apiKeys: string[]; header: string };
  /** The forms' cookie signing secrets, the signing one first. */
  formSecrets: string[];
  mail: { smtpUrl: string; from: string };
  activationLinkTtlHours: number;
  /** The operators' admin API tokens (two while one is rotated); none turns the admin API off (404). */
  adminApiTokens: string[];
  /**
   * The console (issue 30): its client at the provider, the roles that open it and how long a
   * session lasts; undefined: no console (CONSOLE_CLIENT_ID unset).
   */
  console:
    | {
        clientId: string;
        clientSecret: string;
        distDir: string;
        operatorRole: string;
        managerRole: string;
        idleMs: number;
        maxMs: number;
      }
    | undefined;
  /** At most this many fresh sign-in requests a minute for one client address and instance. */
  signInRequestsPerAddressPerMinute: number;
  /** The rate limits of the portal's calls, per-address ones scaled by ADDRESS_LIMITS_FACTOR. */
  rateLimits: RateLimits;
  /** At most this many codes and invitations per tenant and clock hour through the admin API. */
  adminQuotas: { codesPerTenantPerHour: number; invitationsPerTenantPerHour: number };
  /** An invitation registers up to the end of this many days after the day it is sent. */
  invitationValidityDays: number;
  /** Housekeeping: days a sent e-mail's outbox row is kept. */
  sentMailRetentionDays: number;
  /** Housekeeping: days a row of the admin actions' audit log is kept. */
  auditRetentionDays: number;
  /** The commit of this build (BUILD_COMMIT), `unknown` when the build named none. */
  buildCommit: string;
  /** Where traces go (OTLP/HTTP) and the service's name in them; undefined: no tracing. */
  tracing: { tracesEndpoint: string; serviceName: string } | undefined;
  /** Where /metrics listens, apart from the public port; undefined: nowhere. */
  metrics: { host: string; port: number } | undefined;
  /** Timeout, retries and circuit breaker of every provider call (provider-client/provider-http.ts). */
  providerCalls: {
    timeoutMs: number;
    retries: number;
    retryBackoffMs: number;
    breaker: { threshold: number; windowMs: number; coolDownMs: number };
  };
}

/**
 * The embedded setup's values, taken only with CONCIERGE_DEV=true (`npm start`, `npm run cluster`,
 * the tests, the bench): the same URLs and public secrets the embedded provider uses. Without the
 * switch each of these must be set, and the secrets must be strong (docs/operations.md,
 * "Configuration").
 */
const DEVELOPMENT_DEFAULTS = {
  PORTAL_URL: 'http://localhost:8080',
  PROVIDER_URL: 'http://localhost:8081',
  APP_ENV: 'dev',
  SMTP_URL: 'smtp://localhost:1025',
  MAIL_FROM: '"Concierge" <no-reply@concierge.test>',
  PROVIDER_ADMIN_CLIENT_SECRET: 'concierge-dev-admin-client-secret',
  WEBHOOK_API_KEY: 'concierge-dev-webhook-key',
  ADMIN_API_TOKEN: 'concierge-dev-admin-token',
  CONSOLE_CLIENT_ID: 'concierge-console',
  CONSOLE_CLIENT_SECRET: 'concierge-dev-console-client-secret',
  FORM_SECRET: 'concierge-dev-form-secret',
  RESET_LINK_LIFETIME_MINUTES: String(DEFAULT_RESET_LINK_LIFETIME_MINUTES),
} as const;

/** What a deployment (no CONCIERGE_DEV=true) must set; DATABASE_URL is read by main.ts. */
export const REQUIRED_OUTSIDE_DEVELOPMENT = [
  'DATABASE_URL',
  'PORTAL_URL',
  'PROVIDER_URL',
  'APP_ENV',
  'SMTP_URL',
  'MAIL_FROM',
  'PROVIDER_ADMIN_CLIENT_SECRET',
  'WEBHOOK_API_KEY',
  'FORM_SECRET',
  'RESET_LINK_LIFETIME_MINUTES',
] as const;

/** Secrets: outside development each must be strong (secretWeakness); ADMIN_API_TOKEN only when set. */
const SECRETS = [
  'PROVIDER_ADMIN_CLIENT_SECRET',
  'WEBHOOK_API_KEY',
  'ADMIN_API_TOKEN',
  'FORM_SECRET',
  'CONSOLE_CLIENT_SECRET',
] as const;
/** Those that take two values while rotated (rotatableSecret): each value must be strong. */
const ROTATABLE_SECRETS: ReadonlySet<string> = new Set(['WEBHOOK_API_KEY', 'ADMIN_API_TOKEN', 'FORM_SECRET']);

/** What docs/operations.md's table of the server's variables is made of (scripts/config-tables.mjs). */
export const CONFIGURATION_REFERENCE: ConfigurationReference = {
  schema: envSchema,
  variables: VARIABLES,
  requiredOutsideDevelopment: REQUIRED_OUTSIDE_DEVELOPMENT,
  secrets: SECRETS,
  developmentDefaults: DEVELOPMENT_DEFAULTS,
};

/**
 * Environment → typed configuration, in one place. Throws a message naming every missing, weak or
 * bad variable. Development defaults only with CONCIERGE_DEV=true; NODE_ENV and APP_ENV do not
 * decide it, so that a deployment that forgets a variable stops instead of running on a public one.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const isDevelopment = developmentSwitchOf(env);
  if (isDevelopment === undefined) {
    throw new Error(`Invalid server configuration:\n  ${DEVELOPMENT_SWITCH}: must be true or false`);
  }
  // An empty variable means "not set", as in most shells' `VAR= command`.
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const problems: string[] = [];
  if (!isDevelopment) {
    for (const name of REQUIRED_OUTSIDE_DEVELOPMENT) {
      if (given[name] === undefined) {
        problems.push(`${name}: required (set it, or ${DEVELOPMENT_SWITCH}=true for a development run)`);
      }
    }
    for (const name of SECRETS) {
      const value = given[name];
      if (value === undefined) continue;
      for (const secret of ROTATABLE_SECRETS.has(name) ? splitSecrets(value) : [value]) {
        const weakness = secretWeakness(secret);
        if (weakness) problems.push(`${name}: ${weakness}`);
      }
    }
  }
  const parsed = envSchema.safeParse(isDevelopment ? { ...DEVELOPMENT_DEFAULTS, ...given } : given);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      // The variable, also for one of a rotated secret's values (path [name, position]).
      const name = String(issue.path[0]);
      // A missing required variable is said once, above.
      if (!problems.some((problem) => problem.startsWith(`${name}:`)))
        problems.push(`${name}: ${issue.message}`);
    }
  }
  if (problems.length > 0 || !parsed.success) {
    throw new Error(`Invalid server configuration:\n  ${problems.join('\n  ')}`);
  }
  const values = parsed.data;
  if ((values.CONSOLE_CLIENT_ID === undefined) !== (values.CONSOLE_CLIENT_SECRET === undefined)) {
    throw new Error(
      'Invalid server configuration:\n  CONSOLE_CLIENT_ID, CONSOLE_CLIENT_SECRET: set both (the console) or neither',
    );
  }
  const isProduction = !isDevelopment || values.NODE_ENV === 'production';
  return {
    host: values.HOST,
    port: values.PORT,
    isProduction,
    trustProxy: values.TRUST_PROXY,
    shutdownDrainMs: values.SHUTDOWN_DRAIN_SECONDS * 1000,
    logLevel: values.LOG_LEVEL,
    portalUrl: values.PORTAL_URL,
    providerUrl: values.PROVIDER_URL,
    tenantsFile: values.TENANTS_FILE,
    runtime: {
      env: values.APP_ENV,
      cidaasBaseUrl: values.PROVIDER_URL,
      restApiBaseUrl: values.REST_API_BASE_URL ?? values.PORTAL_URL,
      propertyPortalClientId: values.PROPERTY_PORTAL_CLIENT_ID,
      activationLinkLifetimeMinutes: values.ACTIVATION_LINK_TTL_HOURS * 60,
      resetLinkLifetimeMinutes: values.RESET_LINK_LIFETIME_MINUTES,
    },
    portalDistDir: values.PORTAL_DIST_DIR,
    providerAdmin: {
      clientId: values.PROVIDER_ADMIN_CLIENT_ID,
      clientSecret: values.PROVIDER_ADMIN_CLIENT_SECRET,
    },
    webhook: {
      apiKeys: values.WEBHOOK_API_KEY,
      header: values.WEBHOOK_API_KEY_HEADER.toLowerCase(),
    },
    formSecrets: values.FORM_SECRET,
    mail: { smtpUrl: values.SMTP_URL, from: values.MAIL_FROM },
    activationLinkTtlHours: values.ACTIVATION_LINK_TTL_HOURS,
    adminApiTokens: values.ADMIN_API_TOKEN ?? [],
    console:
      values.CONSOLE_CLIENT_ID && values.CONSOLE_CLIENT_SECRET
        ? {
            clientId: values.CONSOLE_CLIENT_ID,
            clientSecret: values.CONSOLE_CLIENT_SECRET,
            distDir: values.CONSOLE_DIST_DIR,
            operatorRole: values.CONSOLE_OPERATOR_ROLE,
            managerRole: values.CONSOLE_MANAGER_ROLE,
            idleMs: values.CONSOLE_IDLE_MINUTES * 60_000,
            maxMs: values.CONSOLE_SESSION_HOURS * 3_600_000,
          }
        : undefined,
    signInRequestsPerAddressPerMinute: values.SIGN_IN_REQUESTS_PER_ADDRESS_PER_MINUTE,
    rateLimits: scaleAddressLimits(values.ADDRESS_LIMITS_FACTOR),
    adminQuotas: {
      codesPerTenantPerHour: values.ADMIN_CODES_PER_TENANT_PER_HOUR,
      invitationsPerTenantPerHour: values.ADMIN_INVITATIONS_PER_TENANT_PER_HOUR,
    },
    invitationValidityDays: values.INVITATION_VALIDITY_DAYS,
    sentMailRetentionDays: values.SENT_MAIL_RETENTION_DAYS,
    auditRetentionDays: values.AUDIT_RETENTION_DAYS,
    buildCommit: values.BUILD_COMMIT,
    tracing: tracingOf(values),
    metrics:
      values.METRICS_PORT === undefined
        ? undefined
        : { host: values.METRICS_HOST, port: values.METRICS_PORT },
    providerCalls: {
      timeoutMs: values.PROVIDER_CALL_TIMEOUT_MS,
      retries: values.PROVIDER_CALL_RETRIES,
      retryBackoffMs: values.PROVIDER_CALL_RETRY_BACKOFF_MS,
      breaker: {
        threshold: values.PROVIDER_BREAKER_THRESHOLD,
        windowMs: values.PROVIDER_BREAKER_WINDOW_SECONDS * 1000,
        coolDownMs: values.PROVIDER_BREAKER_COOLDOWN_SECONDS * 1000,
      },
    },
  };
}

/**
 * The traces' endpoint as the OTLP exporter specification reads the variables: the signal's own
 * (`…_TRACES_ENDPOINT`) as it is, else the general one with `v1/traces` appended.
 */
function tracingOf(values: z.infer<typeof envSchema>): ServerConfig['tracing'] {
  const general = values.OTEL_EXPORTER_OTLP_ENDPOINT;
  const tracesEndpoint =
    values.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
    (general === undefined ? undefined : `${general.replace(/\/+$/, '')}/v1/traces`);
  return tracesEndpoint === undefined ? undefined : { tracesEndpoint, serviceName: values.OTEL_SERVICE_NAME };
}

const TRUST_WORDS: Record<string, boolean> = {
  true: true,
  yes: true,
  on: true,
  false: false,
  no: false,
  off: false,
};
/** proxy-addr's names for address ranges. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY as Fastify takes it. `false`: X-Forwarded-* are ignored, the client is the socket's
 * peer. `true`: every hop is believed, so the client is the leftmost X-Forwarded-For entry — right
 * only behind a proxy that overwrites the header. A number: that many proxies in front. Addresses
 * or CIDR ranges (`127.0.0.1`, `10.0.0.0/8`, `loopback`): only those proxies are believed, and the
 * client is the nearest address that is not one of them, whatever a client put into the header
 * itself (docs/operations.md, "Behind a load balancer"). Undefined when the value is none of these.
 */
export function trustProxyOf(value: string): boolean | number | string[] | undefined {
  const text = value.trim().toLowerCase();
  if (text === '') return false;
  if (Object.hasOwn(TRUST_WORDS, text)) return TRUST_WORDS[text];
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text.split(',').map((entry) => entry.trim());
  return entries.every(isProxyAddress) ? entries : undefined;
}

function isProxyAddress(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}
