import { fileURLToPath } from 'node:url';
import { ENVIRONMENTS, type RuntimeConfig } from '@concierge/contracts';
import { z } from 'zod';

const origin = z
  .url()
  .transform((value) => new URL(value).origin)
  .refine((value) => /^https?:/.test(value), 'must be an http(s) origin');

const envSchema = z.object({
  NODE_ENV: z.string().default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** The portal's public origin, as browsers reach it. */
  PORTAL_URL: origin.default('http://localhost:8080'),
  /** The identity provider (cidaas or the embedded one): cidaasBaseUrl. */
  PROVIDER_URL: origin.default('http://localhost:8081'),
  /** Where the failed-login counter lives; this server unless configured otherwise. */
  REST_API_BASE_URL: origin.optional(),
  APP_ENV: z.enum(ENVIRONMENTS).default('dev'),
  PROPERTY_PORTAL_CLIENT_ID: z.string().min(1).default('property-portal-demo'),
  /** The tenant registry; its folder holds the tenants' logos and stylesheets. */
  TENANTS_FILE: z.string().default(fileURLToPath(new URL('../../../tenants/tenants.json', import.meta.url))),
  /** The server's client at the provider (client credentials) for the admin API. */
  PROVIDER_ADMIN_CLIENT_ID: z.string().min(1).default('concierge-server'),
  PROVIDER_ADMIN_CLIENT_SECRET: z.string().min(16).optional(),
  /** The key the provider's webhooks carry, and the header it comes in. */
  WEBHOOK_API_KEY: z.string().min(16).optional(),
  WEBHOOK_API_KEY_HEADER: z.string().min(1).default('X-API-Key'),
  SMTP_URL: z.url().default('smtp://localhost:1025'),
  MAIL_FROM: z.string().min(3).default('"Concierge" <no-reply@concierge.test>'),
  /** How long an activation link stays valid. */
  ACTIVATION_LINK_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(72),
  /** Bearer token of the operators' admin API (/api/admin); without it in production that API is off. */
  ADMIN_API_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  PORTAL_DIST_DIR: z.string().default(fileURLToPath(new URL('../../portal/dist', import.meta.url))),
  TRUST_PROXY: z.stringbool().default(false),
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
});

export interface ServerConfig {
  host: string;
  port: number;
  isProduction: boolean;
  trustProxy: boolean;
  logLevel: string;
  portalUrl: string;
  providerUrl: string;
  tenantsFile: string;
  runtime: RuntimeConfig;
  portalDistDir: string;
  providerAdmin: { clientId: string; clientSecret: string };
  webhook: { apiKey: string; header: string };
  mail: { smtpUrl: string; from: string };
  activationLinkTtlHours: number;
  /** The operators' admin API token; undefined turns the admin API off (404). */
  adminApiToken: string | undefined;
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

// Embedded-setup defaults, the same the embedded provider uses; production must set its own.
const DEV_ADMIN_CLIENT_SECRET = 'concierge-dev-admin-client-secret';
const DEV_WEBHOOK_API_KEY = 'concierge-dev-webhook-key';
// Production never falls back to it: there the admin API is off unless ADMIN_API_TOKEN is set.
const DEV_ADMIN_API_TOKEN = 'concierge-dev-admin-token';

/** Environment → typed configuration, in one place. Throws a message naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid server configuration:\n  ${problems.join('\n  ')}`);
  }
  const values = parsed.data;
  const isProduction = values.NODE_ENV === 'production';
  const missing = [
    ...(isProduction && !values.PROVIDER_ADMIN_CLIENT_SECRET ? ['PROVIDER_ADMIN_CLIENT_SECRET'] : []),
    ...(isProduction && !values.WEBHOOK_API_KEY ? ['WEBHOOK_API_KEY'] : []),
  ];
  if (missing.length > 0) {
    throw new Error(
      `Invalid server configuration:\n  ${missing.map((name) => `${name}: required in production`).join('\n  ')}`,
    );
  }
  return {
    host: values.HOST,
    port: values.PORT,
    isProduction,
    trustProxy: values.TRUST_PROXY,
    logLevel: values.LOG_LEVEL,
    portalUrl: values.PORTAL_URL,
    providerUrl: values.PROVIDER_URL,
    tenantsFile: values.TENANTS_FILE,
    runtime: {
      env: values.APP_ENV,
      cidaasBaseUrl: values.PROVIDER_URL,
      restApiBaseUrl: values.REST_API_BASE_URL ?? values.PORTAL_URL,
      propertyPortalClientId: values.PROPERTY_PORTAL_CLIENT_ID,
    },
    portalDistDir: values.PORTAL_DIST_DIR,
    providerAdmin: {
      clientId: values.PROVIDER_ADMIN_CLIENT_ID,
      clientSecret: values.PROVIDER_ADMIN_CLIENT_SECRET ?? DEV_ADMIN_CLIENT_SECRET,
    },
    webhook: {
      apiKey: values.WEBHOOK_API_KEY ?? DEV_WEBHOOK_API_KEY,
      header: values.WEBHOOK_API_KEY_HEADER.toLowerCase(),
    },
    mail: { smtpUrl: values.SMTP_URL, from: values.MAIL_FROM },
    activationLinkTtlHours: values.ACTIVATION_LINK_TTL_HOURS,
    adminApiToken: values.ADMIN_API_TOKEN ?? (isProduction ? undefined : DEV_ADMIN_API_TOKEN),
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
