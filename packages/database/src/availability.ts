/**
 * SQLSTATEs that say the server is not there for us now, not that it refused the query: class 08
 * (connection exception), shutting down or starting up (57P01–57P03), and out of connections.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const UNAVAILABLE_SQLSTATE_CLASSES = new Set(['08']);

/** Socket errors of a connection to the database that could not be made or was lost. */
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * What pg and pg-pool throw, without a code, when a connection ends under a query, cannot be had
 * within the pool's connection timeout, or broke earlier.
 */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Query read timeout',
];

/**
 * Whether a query failed because PostgreSQL could not be reached or went away (stopped, restarting,
 * failing over, out of connections), so that the same request may well succeed in a little while:
 * the answer is then 503 "try again later" instead of an unexpected error. Errors the database gave
 * about the query itself (constraints, syntax, a statement timeout) are not.
 *
 * Only the error itself and the parts of an AggregateError are looked at (Node's connection attempt
 * to both addresses of `localhost` fails as one), never a `cause`: the provider client's fetch
 * failures carry ECONNREFUSED as their cause and are not the database's.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof AggregateError && error.errors.some(isDatabaseUnavailable)) return true;
  const { code } = error as Error & { code?: unknown };
  if (typeof code === 'string') {
    if (UNAVAILABLE_SOCKET_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && UNAVAILABLE_SQLSTATE_CLASSES.has(code.slice(0, 2))) return true;
  }
  return UNAVAILABLE_MESSAGES.some((message) => error.message.startsWith(message));
}
