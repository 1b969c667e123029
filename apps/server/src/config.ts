import { fileURLToPath } from 'node:url';
import { ENVIRONMENTS, type RuntimeConfig } from '@concierge/contracts';
import { type DatabaseLocation, databaseLocationFromEnv } from '@concierge/database';
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
  DATA_DIR: z.string().default('.data'),
  PORTAL_DIST_DIR: z.string().default(fileURLToPath(new URL('../../portal/dist', import.meta.url))),
  TRUST_PROXY: z.stringbool().default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
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
  database: DatabaseLocation;
  portalDistDir: string;
}

/** Environment → typed configuration, in one place. Throws a message naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid server configuration:\n  ${problems.join('\n  ')}`);
  }
  const values = parsed.data;
  return {
    host: values.HOST,
    port: values.PORT,
    isProduction: values.NODE_ENV === 'production',
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
    database: databaseLocationFromEnv(`${values.DATA_DIR}/server`, env),
    portalDistDir: values.PORTAL_DIST_DIR,
  };
}
