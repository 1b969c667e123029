// What the server and the embedded provider share about development and deployment configuration
// (docs/operations.md, "Configuration"): a process takes the development defaults — localhost URLs
// and the public secrets below — only when it is plainly a development one, and any other process
// refuses to start without its own values.

/**
 * The switch `npm start`, `npm run cluster`, the tests and the bench set (scripts/stack.mjs):
 * `CONCIERGE_DEV=true`. Without it a process is a deployment, whatever NODE_ENV or APP_ENV say.
 */
export const DEVELOPMENT_SWITCH = 'CONCIERGE_DEV';

/** Whether the environment asks for development defaults; `undefined` for a value that is neither. */
export function developmentSwitchOf(env: Record<string, string | undefined>): boolean | undefined {
  const value = env[DEVELOPMENT_SWITCH];
  if (value === undefined || value === '' || value === 'false') return false;
  return value === 'true' ? true : undefined;
}

/**
 * The development secrets: in this repository for anybody to read, so they prove nothing. A process
 * outside development refuses each of them, whichever variable it comes in.
 */
export const PUBLIC_DEVELOPMENT_SECRETS = [
  'concierge-dev-admin-token',
  'concierge-dev-webhook-key',
  'concierge-dev-admin-client-secret',
  'concierge-dev-form-secret',
  'concierge-dev-console-client-secret',
] as const;

export const MIN_SECRET_LENGTH = 16;
/** 'aaaaaaaaaaaaaaaa' or 'abababababababab' is long enough and guessed at once. */
export const MIN_SECRET_DISTINCT_CHARACTERS = 8;

/** Why a secret (a token, an API key, a client secret) is too weak for a deployment, or undefined. */
export function secretWeakness(value: string): string | undefined {
  if ((PUBLIC_DEVELOPMENT_SECRETS as readonly string[]).includes(value)) {
    return 'is a public development value; set a secret of your own';
  }
  if (value.length < MIN_SECRET_LENGTH) return `must be at least ${MIN_SECRET_LENGTH} characters`;
  if (new Set(value).size < MIN_SECRET_DISTINCT_CHARACTERS) {
    return `must have at least ${MIN_SECRET_DISTINCT_CHARACTERS} different characters (use a random value)`;
  }
  return undefined;
}
