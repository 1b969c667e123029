/**
 * The variables, their defaults and what docs/operations.md says of them: its table is generated
 * from this (`npm run config-tables`, scripts/config-tables.mjs), and readMailCatcherConfig takes the
 * defaults from here.
 */
export const CONFIGURATION_REFERENCE = {
  variables: {
    MAIL_HOST: { description: 'the address both its servers listen on', default: '127.0.0.1' },
    MAIL_SMTP_PORT: { description: 'the port of its SMTP server', default: '1025' },
    MAIL_HTTP_PORT: { description: 'the port of its inbox page (JSON at `/api/messages`)', default: '8025' },
  },
} as const satisfies { variables: Record<string, { description: string; default: string }> };

const defaults = CONFIGURATION_REFERENCE.variables;

export interface MailCatcherConfig {
  host: string;
  smtpPort: number;
  httpPort: number;
}

export function readMailCatcherConfig(env: NodeJS.ProcessEnv): MailCatcherConfig {
  return {
    host: env.MAIL_HOST || defaults.MAIL_HOST.default,
    smtpPort: port(env, 'MAIL_SMTP_PORT', Number(defaults.MAIL_SMTP_PORT.default)),
    httpPort: port(env, 'MAIL_HTTP_PORT', Number(defaults.MAIL_HTTP_PORT.default)),
  };
}

function port(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65535) {
    throw new Error(`${name} must be a port number (0-65535), got "${value}"`);
  }
  return parsed;
}
