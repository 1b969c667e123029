import { type LogSettings, loggerOptions } from '@concierge/observability';
import type { FastifyServerOptions } from 'fastify';

/**
 * Field names secret at the provider only: the hosted login form's `username` is an e-mail, `code` an
 * authorization code and `code_verifier` its PKCE proof. (The auth events name an e-mail only by its
 * hash, `emailHash`.) On the server a `code` is an error code and stays readable.
 */
const PROVIDER_SECRET_FIELDS = ['username', 'code', 'code_verifier'];

/**
 * The provider's logger (docs/operations.md, "Logs"): the shared one (@concierge/observability), with
 * the provider's own secret fields censored too.
 */
export function providerLoggerOptions(settings: LogSettings): FastifyServerOptions['logger'] {
  return loggerOptions({
    ...settings,
    secretFields: [...PROVIDER_SECRET_FIELDS, ...(settings.secretFields ?? [])],
  });
}
