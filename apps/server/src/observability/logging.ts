import { REDACTED } from '@concierge/contracts';
import { installRequestLog, type LogSettings, loggerOptions } from '@concierge/observability';
import type { FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify';

/**
 * The server's logger (docs/operations.md, "Logs"): the shared one (@concierge/observability), with
 * the registration code in the admin API's paths censored too.
 */
export function serverLoggerOptions(settings: LogSettings): FastifyServerOptions['logger'] {
  return loggerOptions({ ...settings, redactPath: redactCodePath });
}

/**
 * The admin API's `/codes/{code}/…`: a registration code in the path, as secret as in a query. The
 * webhook's whole query: cidaas may send its API key there, under a name the operator chooses.
 */
function redactCodePath(url: string): string {
  return url
    .replace(/(\/codes\/)[^/?]+/, `$1${REDACTED}`)
    .replace(/^(\/api\/cidaas-webhook\/[^?]*)\?.*$/, `$1?${REDACTED}`);
}

/** The health probes' routes, which poll all day: their lines are at debug, and they make no span. */
export const PROBES = ['/healthz', '/readyz'];
const CODE = /^[A-Za-z0-9_.-]{1,64}$/;
const envelopeCodes = new WeakMap<FastifyRequest, string>();

/**
 * The shared request log (one line per request), with the server's tenant and outcome: where the
 * handler noted none (noteForLog), the tenant is the `subdomain` query parameter when it names a
 * registry tenant, and the outcome the error code of the envelope answered.
 */
export function installServerRequestLog(
  app: FastifyInstance,
  isKnownTenant: (subdomain: string) => boolean,
): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode >= 400 && typeof payload === 'string' && payload.startsWith('{"success":false')) {
      const code = envelopeCode(payload);
      if (code) envelopeCodes.set(request, code);
    }
    return payload;
  });
  installRequestLog(app, {
    probes: PROBES,
    fallback: (request) => {
      const { subdomain } = (request.query ?? {}) as { subdomain?: unknown };
      return {
        tenant: typeof subdomain === 'string' && isKnownTenant(subdomain) ? subdomain : undefined,
        outcome: envelopeCodes.get(request),
      };
    },
  });
}

function envelopeCode(payload: string): string | undefined {
  try {
    const code = String((JSON.parse(payload) as { error?: { code?: unknown } }).error?.code);
    return CODE.test(code) ? code : undefined;
  } catch {
    return undefined;
  }
}
