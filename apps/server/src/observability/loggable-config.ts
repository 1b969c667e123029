import type { ServerConfig } from '../config';

/** What a secret is logged as: that it is set, never its value or a part of it. */
export const MASKED = '***';

const same = <T>(value: T): T => value;

/**
 * Each setting of the configuration as the start line logs it (start-line.ts). A mapped type over
 * every key: a setting added to ServerConfig does not compile until it is decided here whether it is
 * a secret, so none reaches the log by being forgotten. Secrets are masked whole; a URL keeps its
 * host and user and loses its password.
 */
const LOGGED: { [Key in keyof ServerConfig]-?: (value: ServerConfig[Key]) => unknown } = {
  host: same,
  port: same,
  isProduction: same,
  trustProxy: same,
  shutdownDrainMs: same,
  logLevel: same,
  portalUrl: same,
  providerUrl: same,
  tenantsFile: same,
  runtime: same,
  portalDistDir: same,
  providerAdmin: ({ clientId }) => ({ clientId, clientSecret: MASKED }),
  // How many of each rotatable secret: a rotation shows as two.
  webhook: ({ header, apiKeys }) => ({ header, apiKeys: apiKeys.map(() => MASKED) }),
  formSecrets: (secrets) => secrets.map(() => MASKED),
  mail: ({ smtpUrl, from }) => ({ smtpUrl: withoutPassword(smtpUrl), from }),
  activationLinkTtlHours: same,
  adminApiTokens: (tokens) => tokens.map(() => MASKED),
  console: (settings) => settings && { ...settings, clientSecret: MASKED },
  signInRequestsPerAddressPerMinute: same,
  rateLimits: same,
  adminQuotas: same,
  invitationValidityDays: same,
  sentMailRetentionDays: same,
  auditRetentionDays: same,
  buildCommit: same,
  // A collector's credentials travel in OTEL_EXPORTER_OTLP_HEADERS, which the exporter reads itself.
  tracing: (tracing) => tracing && { ...tracing, tracesEndpoint: withoutPassword(tracing.tracesEndpoint) },
  metrics: same,
  providerCalls: same,
};

/** The configuration with every secret masked, for the start line. */
export function loggableConfig(config: ServerConfig): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(LOGGED).map(([key, log]) => [
      key,
      (log as (value: unknown) => unknown)(config[key as keyof ServerConfig]),
    ]),
  );
}

/** Query parameters that may carry a secret in a connection URL (pg takes `?password=`, `sslpassword=`). */
const SECRET_PARAMETER = /pass|secret|token|key/i;

/**
 * A URL with its password masked (`smtps://mailer:***@relay.example.ch`, the same for
 * DATABASE_URL), also one in its query; masked whole when it is not a URL, since then nobody can
 * tell where a password is in it.
 */
export function withoutPassword(value: string): string {
  if (!URL.canParse(value)) return MASKED;
  const url = new URL(value);
  if (url.password !== '') url.password = MASKED;
  for (const name of [...url.searchParams.keys()]) {
    if (SECRET_PARAMETER.test(name)) url.searchParams.set(name, MASKED);
  }
  return url.href;
}
