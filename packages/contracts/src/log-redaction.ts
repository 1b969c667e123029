// What a log line may show of a request URL (docs/operations.md, "Logs"). The spec's query
// parameters (§2) carry one-time secrets and addresses; the OIDC endpoints' carry tokens and hints.

/**
 * Query parameters whose values never reach a log, compared in lower case:
 * - spec §2: `registrationcode` and `code` (a registration code works for whoever has it), `invite_id`,
 *   `verificationid` (activates the account), `exchangeid`, `rprq` and `resetrequestid` (together
 *   they set a new password), `email` and `username` (the login page's prefilled e-mail);
 * - OIDC (the embedded provider): `code` (an authorization code), `code_verifier`, `id_token_hint`,
 *   `login_hint`, `access_token`, `refresh_token`, `token`, `client_secret`;
 * - `password`, `confirmpassword`, should a form ever be sent as a query;
 * - `sub` and `q` (its masked form): cidaas names the account on a known user's failed sign-in
 *   (recorded), which would tell from a log line which typed e-mail has an account.
 *
 * Not secret, and kept for following a request through the logs: `subdomain`, `requestId` (a sign-in
 * request: it names the client, but signs nobody in without the password), `error`, `lang`.
 */
export const SECRET_QUERY_PARAMETERS: readonly string[] = [
  'registrationcode',
  'code',
  'invite_id',
  'verificationid',
  'exchangeid',
  'rprq',
  'resetrequestid',
  'email',
  'username',
  'code_verifier',
  'id_token_hint',
  'login_hint',
  'access_token',
  'refresh_token',
  'token',
  'client_secret',
  'password',
  'confirmpassword',
  'sub',
  'q',
];

const SECRET_NAMES = new Set(SECRET_QUERY_PARAMETERS);

export const REDACTED = '[redacted]';

function decoded(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

/**
 * The URL (path and query) with the value of every secret query parameter replaced by `[redacted]`,
 * and of any other parameter whose value holds an `@` (an e-mail address under another name).
 * Everything else stays as it came, so a log line still tells which page was asked for and how.
 */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const query = url
    .slice(queryStart + 1)
    .split('&')
    .map((part) => {
      const equals = part.indexOf('=');
      const name = equals === -1 ? part : part.slice(0, equals);
      const value = equals === -1 ? '' : part.slice(equals + 1);
      const isSecret = SECRET_NAMES.has(decoded(name).toLowerCase()) || decoded(value).includes('@');
      return isSecret && value !== '' ? `${name}=${REDACTED}` : part;
    })
    .join('&');
  return `${url.slice(0, queryStart)}?${query}`;
}
