import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  type ConfigurationReference,
  DEFAULT_RESET_LINK_LIFETIME_MINUTES,
  DEVELOPMENT_SWITCH,
  developmentSwitchOf,
  type PUBLIC_DEVELOPMENT_SECRETS,
  SUBDOMAIN_PATTERN,
  secretWeakness,
  type VariableDescriptions,
} from '@concierge/contracts';
import { z } from 'zod';

/**
 * Known to everybody on purpose: only for development runs (CONCIERGE_DEV=true); any other run must
 * bring its own (see loadConfig).
 */
export const DEV_ADMIN_CLIENT_SECRET: (typeof PUBLIC_DEVELOPMENT_SECRETS)[number] =
  'concierge-dev-admin-client-secret';
/** The console's client (the server's CONSOLE_CLIENT_SECRET in a development run). */
export const DEV_CONSOLE_CLIENT_SECRET: (typeof PUBLIC_DEVELOPMENT_SECRETS)[number] =
  'concierge-dev-console-client-secret';
/** Same idea: the server's development configuration expects this key on incoming webhooks. */
export const DEV_WEBHOOK_API_KEY: (typeof PUBLIC_DEVELOPMENT_SECRETS)[number] = 'concierge-dev-webhook-key';

/** What a run without CONCIERGE_DEV=true must set, each a strong secret (secretWeakness). */
export const SECRETS_OUTSIDE_DEVELOPMENT = [
  'PROVIDER_ADMIN_CLIENT_SECRET',
  'PROVIDER_WEBHOOK_API_KEY',
] as const;

/**
 * Scopes the admin client may ask for with client_credentials. They are the cidaas names, so the
 * server's one provider client can send the same request to cidaas and to this stand-in. The admin
 * API itself only checks that the token belongs to the admin client (see routes/admin-auth.ts).
 */
export const ADMIN_SCOPES = [
  'cidaas:register',
  'cidaas:users_read',
  'cidaas:users_write',
  'cidaas:users_search',
  'cidaas:userupdate',
  'cidaas:fds_settings_write',
] as const;

const httpUrl = z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' });

/** A base URL without trailing slash, so that `${base}/login` is always right. */
const baseUrl = httpUrl.transform((value) => value.replace(/\/+$/, ''));

const subdomainSchema = z.string().regex(SUBDOMAIN_PATTERN, 'must be a DNS label in lower case');

const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'] as const;
const AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post'] as const;

/**
 * One relying party: standard OIDC client metadata plus ours (hosted_page_url, subdomain,
 * required_roles, brand_color), which oidc-provider never sees (see oidc/clients.ts). The
 * registration flags are not here: cidaas has none, the server's tenant registry carries them.
 */
export const clientSchema = z
  .strictObject({
    client_id: z.string().min(1).max(200),
    client_secret: z.string().min(16).optional(),
    client_name: z.string().min(1).optional(),
    client_uri: httpUrl.optional(),
    logo_uri: httpUrl.optional(),
    policy_uri: httpUrl.optional(),
    tos_uri: httpUrl.optional(),
    redirect_uris: z.array(httpUrl).default([]),
    post_logout_redirect_uris: z.array(httpUrl).default([]),
    grant_types: z.array(z.enum(GRANT_TYPES)).min(1).default(['authorization_code']),
    token_endpoint_auth_method: z.enum(AUTH_METHODS).default('client_secret_basic'),
    scope: z.string().min(1).optional(),
    /**
     * The client's hosted login page, as configured per client at cidaas: sign-in requests without
     * a session and failed logins go back here, with cidaas's parameters added to its own query.
     * Default `${PORTAL_URL}/login` (portal-urls.ts hostedPageUrlOf).
     */
    hosted_page_url: httpUrl.optional(),
    /** Only brands the e-mails sent for this client; never added to a hosted page URL. */
    subdomain: subdomainSchema.optional(),
    required_roles: z.array(z.string().min(1)).default([]),
    /** The tenant's brand colour, used for the button in the e-mails sent for this client. */
    brand_color: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #1864ab')
      .optional(),
  })
  .superRefine((client, context) => {
    const isPublic = client.token_endpoint_auth_method === 'none';
    if (isPublic && client.client_secret !== undefined) {
      context.addIssue({ code: 'custom', path: ['client_secret'], message: 'a public client has no secret' });
    }
    if (!isPublic && client.client_secret === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['client_secret'],
        message: `required with token_endpoint_auth_method ${client.token_endpoint_auth_method}`,
      });
    }
    if (isPublic && client.grant_types.includes('client_credentials')) {
      context.addIssue({
        code: 'custom',
        path: ['grant_types'],
        message: 'client_credentials needs a secret',
      });
    }
    if (client.grant_types.includes('authorization_code') && client.redirect_uris.length === 0) {
      context.addIssue({ code: 'custom', path: ['redirect_uris'], message: 'authorization_code needs one' });
    }
  });
export type ClientConfig = z.output<typeof clientSchema>;

export const clientsFileSchema = z.array(clientSchema);

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const envSchema = z.object({
  NODE_ENV: z.string().optional(),
  PROVIDER_PORT: z.coerce.number().int().min(0).max(65_535).default(8081),
  PROVIDER_HOST: z.string().min(1).default('127.0.0.1'),
  PROVIDER_URL: httpUrl
    .refine((value) => new URL(value).pathname === '/', 'must be an origin without path (it is the issuer)')
    .transform((value) => new URL(value).origin)
    .default('http://localhost:8081'),
  PORTAL_URL: baseUrl.default('http://localhost:8080'),
  PROPERTY_PORTAL_URL: baseUrl.default('http://localhost:8082'),
  PROPERTY_PORTAL_CLIENT_ID: z.string().min(1).default('property-portal-demo'),
  PROVIDER_ADMIN_CLIENT_ID: z.string().min(1).default('concierge-server'),
  PROVIDER_ADMIN_CLIENT_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  PROVIDER_CONSOLE_CLIENT_ID: z.string().min(1).default('concierge-console'),
  PROVIDER_CONSOLE_CLIENT_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  PROVIDER_TENANT_NAME: z.string().min(1).default('Concierge (embedded provider)'),
  PROVIDER_TENANT_KEY: z.string().min(1).default('concierge'),
  PROVIDER_SEED_DEMO: booleanFlag.default(true),
  PROVIDER_CLIENTS_FILE: z.string().min(1).optional(),
  PROVIDER_WEBHOOK_URL: httpUrl.optional(),
  PROVIDER_WEBHOOK_API_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  // An HTTP header name (RFC 9110 token), so that it can never smuggle a second header.
  PROVIDER_WEBHOOK_API_KEY_HEADER: z
    .string()
    .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'must be an HTTP header name')
    .default('X-API-Key'),
  PROVIDER_REQUIRE_VERIFIED_EMAIL: booleanFlag.default(true),
  PROVIDER_BLOCK_AFTER_FAILURES: z.coerce.number().int().min(0).max(1000).default(0),
  /**
   * How long a reset link works, in minutes: cidaas's setting, imitated. The server reads the same
   * variable with the same default, for what its pages say, so the two agree wherever both run.
   */
  RESET_LINK_LIFETIME_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(DEFAULT_RESET_LINK_LIFETIME_MINUTES),
  PROVIDER_LOGIN_LIMIT_PER_IP: z.coerce.number().int().min(0).max(1_000_000).default(100),
  PROVIDER_LOGIN_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  PROVIDER_LOGIN_LIMIT_PER_REQUEST: z.coerce.number().int().min(0).max(1000).default(10),
  PROVIDER_LOGIN_ALARM_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(100),
  /** The key of the e-mail hashes in the auth log lines (users/auth-events.ts); unset: random per process. */
  PROVIDER_LOG_HASH_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  SMTP_URL: z
    .url({ protocol: /^smtps?$/, message: 'must be an smtp:// or smtps:// URL' })
    .default('smtp://localhost:1025'),
  PROVIDER_MAIL_FROM: z.string().min(3).max(320).default('"Concierge" <no-reply@concierge.test>'),
  /** Prometheus metrics on a port of their own (docs/operations.md, "Metrics"); unset: none. */
  PROVIDER_METRICS_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  PROVIDER_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
});

/**
 * What docs/operations.md says of each variable, beside the schema: its table is generated from this,
 * the schema's defaults and CONFIGURATION_REFERENCE below (`npm run config-tables`). A variable added
 * to the schema does not compile until it is described here.
 */
const VARIABLES: VariableDescriptions<
  typeof envSchema,
  'CONCIERGE_DEV' | 'DATABASE_URL' | 'LOG_LEVEL' | 'PROVIDER_ALLOW_PRODUCTION'
> = {
  CONCIERGE_DEV:
    '`true` only for a development run: the public development secrets; otherwise both secrets below are required, each at least 16 characters, 8 of them different, and none of the public values',
  PROVIDER_ALLOW_PRODUCTION:
    '`true` lets it start with `NODE_ENV=production`, which it otherwise refuses: it is a development stand-in for cidaas',
  DATABASE_URL: 'the PostgreSQL database, schema `provider` (the same database as the server)',
  NODE_ENV: '`production`: JSON logs even on a terminal; refused without `PROVIDER_ALLOW_PRODUCTION=true`',
  PROVIDER_PORT: 'the port it listens on',
  PROVIDER_HOST: 'the address it listens on',
  PROVIDER_URL: 'its issuer: an origin without path, from which every OIDC URL is built',
  PORTAL_URL:
    'the portal: its hosted login pages (`PORTAL_URL/login`), and the only origin CORS allows on the portal-facing routes',
  PROPERTY_PORTAL_URL: "the demo property portal: its client's redirect URIs",
  PROPERTY_PORTAL_CLIENT_ID: "the demo property portal's client id",
  PROVIDER_ADMIN_CLIENT_ID: "the server's client-credentials client",
  PROVIDER_ADMIN_CLIENT_SECRET: "that client's secret (the server's `PROVIDER_ADMIN_CLIENT_SECRET`)",
  PROVIDER_CONSOLE_CLIENT_ID: "the console's client (the server's `CONSOLE_CLIENT_ID`)",
  PROVIDER_CONSOLE_CLIENT_SECRET:
    "that client's secret (the server's `CONSOLE_CLIENT_SECRET`); outside development the console's client exists only with it",
  PROVIDER_TENANT_NAME:
    "the tenant's name: `/tenantinfo/basic`, and the reset e-mail's when its client has none",
  PROVIDER_TENANT_KEY: "the tenant's key (`/tenantinfo/basic`)",
  PROVIDER_SEED_DEMO: 'seed the demo account',
  PROVIDER_CLIENTS_FILE:
    "clients as JSON; `npm start` writes one client per tenant of the registry, each with its `hosted_page_url` `PORTAL_URL/login?subdomain=<tenant>`; a client without one uses `PORTAL_URL/login`. A client with a built-in client's id replaces it",
  PROVIDER_WEBHOOK_URL: {
    description: 'where its webhooks go; logins answer at once, webhooks follow in the background',
    shownDefault: '`PORTAL_URL/api/cidaas-webhook/events`',
  },
  PROVIDER_WEBHOOK_API_KEY: "the key its webhooks carry (the server's `WEBHOOK_API_KEY`)",
  PROVIDER_WEBHOOK_API_KEY_HEADER: 'the header the key goes in (an HTTP header name)',
  PROVIDER_REQUIRE_VERIFIED_EMAIL:
    "a user whose e-mail is not verified gets `email_not_verified` after the right password, like cidaas's verification pre-check",
  PROVIDER_BLOCK_AFTER_FAILURES:
    "cidaas's brute-force protection: the N-th wrong password in a row sets the user `BLOCKED`, which only `POST /fraud-detection-srv/unblock` lifts; `0`, off, so that the demo shows the server's own lock ([cidaas set-up](cidaas-setup.md) tells operators to set cidaas's to 3)",
  RESET_LINK_LIFETIME_MINUTES:
    'how long a reset link works, in minutes: the server reads the same variable for what the reset page says, so the two agree',
  PROVIDER_LOGIN_LIMIT_PER_IP:
    "failed password checks per client IP per `PROVIDER_LOGIN_LIMIT_WINDOW_SECONDS`: beyond this or `PROVIDER_LOGIN_LIMIT_PER_REQUEST`, sign-ins are answered `invalid_username_password` without checking the password and without a `LOGIN_FAILURE` webhook, so they cannot drive the server's lock of other people's accounts; `0` turns the limit off",
  PROVIDER_LOGIN_LIMIT_WINDOW_SECONDS: 'the window of `PROVIDER_LOGIN_LIMIT_PER_IP`, in seconds',
  PROVIDER_LOGIN_LIMIT_PER_REQUEST: 'failed attempts per request id (as above); `0` turns the limit off',
  PROVIDER_LOGIN_ALARM_PER_MINUTE:
    'failed sign-ins of all accounts per minute beyond which one `auth alarm` warning a minute is logged; `0` off',
  PROVIDER_LOG_HASH_KEY: {
    description:
      "the key of the e-mail hashes in the `auth` log lines (every sign-in success, failure and lock, with the client id and the client IP, never the e-mail or the password): the first 16 hex characters of HMAC-SHA256 of the normalised e-mail; at least 16 characters. Unset, hashes compare only within one process's lifetime ([Logs](#logs))",
    shownDefault: 'random per process',
  },
  SMTP_URL: 'the SMTP server of its e-mails (`smtp://` or `smtps://`)',
  PROVIDER_MAIL_FROM: 'the sender of its e-mails',
  LOG_LEVEL: { description: '`fatal` … `trace`, or `silent`', default: 'info' },
  PROVIDER_METRICS_PORT: {
    description: 'Prometheus `/metrics` on a port of its own ([Metrics](#metrics))',
    shownDefault: 'off',
  },
  PROVIDER_METRICS_HOST: 'the address the metrics port binds to',
};

/** What docs/operations.md's table of the provider's variables is made of (scripts/config-tables.mjs). */
export const CONFIGURATION_REFERENCE: ConfigurationReference = {
  schema: envSchema,
  variables: VARIABLES,
  requiredOutsideDevelopment: ['DATABASE_URL', ...SECRETS_OUTSIDE_DEVELOPMENT],
  secrets: [...SECRETS_OUTSIDE_DEVELOPMENT, 'PROVIDER_LOG_HASH_KEY', 'PROVIDER_CONSOLE_CLIENT_SECRET'],
  developmentDefaults: {
    PROVIDER_ADMIN_CLIENT_SECRET: DEV_ADMIN_CLIENT_SECRET,
    PROVIDER_CONSOLE_CLIENT_SECRET: DEV_CONSOLE_CLIENT_SECRET,
    PROVIDER_WEBHOOK_API_KEY: DEV_WEBHOOK_API_KEY,
  },
};

export interface ProviderConfig {
  isProduction: boolean;
  port: number;
  host: string;
  /** The issuer: an origin; every OIDC URL is built from it. */
  issuer: string;
  /** Hosted login pages live here; also the only origin allowed by CORS on the portal-facing routes. */
  portalUrl: string;
  propertyPortalUrl: string;
  tenant: { name: string; key: string };
  adminClient: { clientId: string; clientSecret: string };
  isDemoSeedEnabled: boolean;
  clients: ClientConfig[];
  signIn: {
    /**
     * cidaas's verification pre-check (a tenant setting there): a user whose e-mail is not verified
     * gets email_not_verified after the right password instead of a session.
     */
    isVerifiedEmailRequired: boolean;
    /**
     * cidaas's brute-force protection: the N-th wrong password in a row sets BLOCKED. 0 = off, as at a
     * tenant without it; wrong passwords are still counted, and the server locks through the admin API.
     */
    blockAfterFailures: number;
  };
  /** How long an e-mailed reset link works, in minutes (RESET_LINK_LIFETIME_MINUTES). */
  resetLinkLifetimeMinutes: number;
  /**
   * Limits on the password check of POST /login-srv/login (users/login-limits.ts), as cidaas has. An
   * attempt beyond a limit is answered invalid_username_password without checking the password and
   * without a LOGIN_FAILURE webhook, so that it cannot drive the server's lock of other accounts.
   * A limit of 0 is off.
   */
  loginLimits: {
    /** Failed attempts per client IP per window (`windowSeconds`). */
    perIp: number;
    windowSeconds: number;
    /** Failed attempts per request id (its lifetime, an hour; counted in fixed windows of an hour). */
    perRequest: number;
    /** Failed sign-ins of all accounts per minute beyond which `auth alarm` is logged, once a minute. */
    alarmPerMinute: number;
  };
  /**
   * The HMAC key of the `emailHash` in the auth log lines. Random per process when
   * PROVIDER_LOG_HASH_KEY is unset: hashes then compare only within one process's lifetime.
   */
  logHashKey: string;
  webhook: {
    url: string;
    apiKey: string;
    apiKeyHeader: string;
  };
  mail: { smtpUrl: string; from: string };
  /** Where /metrics listens, apart from the public port; undefined: nowhere. */
  metrics: { host: string; port: number } | undefined;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * The embedded provider accepts fixed dev secrets and seeds a demo user: it must not be mistaken for
 * an identity provider. Returns the message to stop with, or undefined when starting is fine.
 */
export function productionRefusal(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.NODE_ENV !== 'production' || env.PROVIDER_ALLOW_PRODUCTION === 'true') return undefined;
  return (
    'Refusing to start: apps/provider is a development stand-in for cidaas and NODE_ENV=production. ' +
    'Point the server at the real cidaas tenant instead, or set PROVIDER_ALLOW_PRODUCTION=true ' +
    'if you really mean to run the stand-in (for example for a staging demo).'
  );
}

/** Reads the environment once; a bad value stops the start with a message that names the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ProviderConfig {
  // An empty variable means "not set", as in most shells' `VAR= command`.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success)
    throw new ConfigError(`Invalid provider configuration:\n${z.prettifyError(parsed.error)}`);
  const vars = parsed.data;
  const isProduction = vars.NODE_ENV === 'production';
  // The public development secrets only in a plain development run; NODE_ENV does not decide it.
  const isDevelopment = developmentSwitchOf(present);
  if (isDevelopment === undefined) {
    throw new ConfigError(`Invalid provider configuration:\n${DEVELOPMENT_SWITCH}: must be true or false`);
  }
  if (!isDevelopment) {
    const problems = SECRETS_OUTSIDE_DEVELOPMENT.flatMap((name) => {
      const value = vars[name];
      if (value === undefined)
        return [`${name}: required (set it, or ${DEVELOPMENT_SWITCH}=true for a development run)`];
      const weakness = secretWeakness(value);
      return weakness ? [`${name}: ${weakness}`] : [];
    });
    if (problems.length > 0) throw new ConfigError(`Invalid provider configuration:\n${problems.join('\n')}`);
  }
  const adminClient = {
    clientId: vars.PROVIDER_ADMIN_CLIENT_ID,
    clientSecret: vars.PROVIDER_ADMIN_CLIENT_SECRET ?? DEV_ADMIN_CLIENT_SECRET,
  };
  const consoleSecret =
    vars.PROVIDER_CONSOLE_CLIENT_SECRET ?? (isDevelopment ? DEV_CONSOLE_CLIENT_SECRET : undefined);
  const defaults = defaultClients({
    portalUrl: vars.PORTAL_URL,
    propertyPortalUrl: vars.PROPERTY_PORTAL_URL,
    propertyPortalClientId: vars.PROPERTY_PORTAL_CLIENT_ID,
    adminClient,
    ...(consoleSecret
      ? { consoleClient: { clientId: vars.PROVIDER_CONSOLE_CLIENT_ID, clientSecret: consoleSecret } }
      : {}),
  });
  const extra = vars.PROVIDER_CLIENTS_FILE ? readClientsFile(vars.PROVIDER_CLIENTS_FILE) : [];
  return {
    isProduction,
    port: vars.PROVIDER_PORT,
    host: vars.PROVIDER_HOST,
    issuer: vars.PROVIDER_URL,
    portalUrl: vars.PORTAL_URL,
    propertyPortalUrl: vars.PROPERTY_PORTAL_URL,
    tenant: { name: vars.PROVIDER_TENANT_NAME, key: vars.PROVIDER_TENANT_KEY },
    adminClient,
    isDemoSeedEnabled: vars.PROVIDER_SEED_DEMO,
    clients: mergeClients(defaults, extra),
    signIn: {
      isVerifiedEmailRequired: vars.PROVIDER_REQUIRE_VERIFIED_EMAIL,
      blockAfterFailures: vars.PROVIDER_BLOCK_AFTER_FAILURES,
    },
    resetLinkLifetimeMinutes: vars.RESET_LINK_LIFETIME_MINUTES,
    loginLimits: {
      perIp: vars.PROVIDER_LOGIN_LIMIT_PER_IP,
      windowSeconds: vars.PROVIDER_LOGIN_LIMIT_WINDOW_SECONDS,
      perRequest: vars.PROVIDER_LOGIN_LIMIT_PER_REQUEST,
      alarmPerMinute: vars.PROVIDER_LOGIN_ALARM_PER_MINUTE,
    },
    logHashKey: vars.PROVIDER_LOG_HASH_KEY ?? randomBytes(32).toString('hex'),
    webhook: {
      url: vars.PROVIDER_WEBHOOK_URL ?? `${vars.PORTAL_URL}/api/cidaas-webhook/events`,
      apiKey: vars.PROVIDER_WEBHOOK_API_KEY ?? DEV_WEBHOOK_API_KEY,
      apiKeyHeader: vars.PROVIDER_WEBHOOK_API_KEY_HEADER,
    },
    mail: { smtpUrl: vars.SMTP_URL, from: vars.PROVIDER_MAIL_FROM },
    metrics:
      vars.PROVIDER_METRICS_PORT === undefined
        ? undefined
        : { host: vars.PROVIDER_METRICS_HOST, port: vars.PROVIDER_METRICS_PORT },
  };
}

interface DefaultClientOptions {
  portalUrl: string;
  propertyPortalUrl: string;
  propertyPortalClientId: string;
  adminClient: { clientId: string; clientSecret: string };
  /** The console's confidential client (issue 30), when it has a secret. */
  consoleClient?: { clientId: string; clientSecret: string };
}

export function defaultClients(options: DefaultClientOptions): ClientConfig[] {
  const { portalUrl, propertyPortalUrl, propertyPortalClientId, adminClient, consoleClient } = options;
  return [
    clientSchema.parse({
      client_id: propertyPortalClientId,
      // A tenant's name: it is what the reset e-mail's subject and greeting show.
      client_name: 'Demo Immobilien AG',
      brand_color: '#1864ab',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      redirect_uris: [
        `${propertyPortalUrl}/callback`,
        `${propertyPortalUrl}/silent-renew`,
        `${propertyPortalUrl}/popup-callback`,
      ],
      post_logout_redirect_uris: [`${propertyPortalUrl}/`],
      // Registered as an operator registers a tenant's client (provider-protocol.md, "Hosted-page sign-in").
      hosted_page_url: `${portalUrl}/login?subdomain=demo`,
      subdomain: 'demo',
      required_roles: [],
    }),
    clientSchema.parse({
      client_id: adminClient.clientId,
      client_secret: adminClient.clientSecret,
      client_name: 'Concierge server',
      // Basic is accepted too: oidc/client-auth.ts turns it into post for such clients.
      token_endpoint_auth_method: 'client_secret_post',
      grant_types: ['client_credentials'],
      scope: ADMIN_SCOPES.join(' '),
    }),
    ...(consoleClient
      ? [
          clientSchema.parse({
            client_id: consoleClient.clientId,
            client_secret: consoleClient.clientSecret,
            client_name: 'Concierge console',
            token_endpoint_auth_method: 'client_secret_post',
            grant_types: ['authorization_code'],
            redirect_uris: [`${portalUrl}/console/callback`],
            post_logout_redirect_uris: [`${portalUrl}/console/signed-out`],
            // The office signs in on the portal's own login page, in the default brand.
            hosted_page_url: `${portalUrl}/login`,
            required_roles: [],
          }),
        ]
      : []),
  ];
}

function readClientsFile(file: string): ClientConfig[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(
      `PROVIDER_CLIENTS_FILE ${file} could not be read as JSON: ${(error as Error).message}`,
    );
  }
  const parsed = clientsFileSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(`PROVIDER_CLIENTS_FILE ${file} is invalid:\n${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}

/** A file client with a default client's id replaces it, so a deployment can re-shape the demo client. */
export function mergeClients(defaults: ClientConfig[], extra: ClientConfig[]): ClientConfig[] {
  const seen = new Set<string>();
  for (const client of extra) {
    if (seen.has(client.client_id)) {
      throw new ConfigError(`PROVIDER_CLIENTS_FILE lists client_id "${client.client_id}" twice`);
    }
    seen.add(client.client_id);
  }
  return [...defaults.filter((client) => !seen.has(client.client_id)), ...extra];
}
