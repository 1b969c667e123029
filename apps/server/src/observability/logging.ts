import { REDACTED, redactUrl } from '@concierge/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';

export interface LogSettings {
  level: string;
  isProduction: boolean;
  /** Headers beyond the usual ones that carry a secret: the webhook's API key header. */
  secretHeaders?: readonly string[];
  /** Where the lines go instead of standard output (tests). */
  stream?: { write(line: string): void };
}

const SECRET_HEADERS = ['authorization', 'cookie', 'set-cookie', 'x-api-key'];

/**
 * Field names whose values never reach a log line, wherever a log call puts them (top level or one
 * level down): a second line of defence, no log call here names them on purpose.
 */
const SECRET_FIELDS = [
  'password',
  'confirmPassword',
  'confirmpassword',
  'password_echo',
  'newPassword',
  'email',
  'registrationcode',
  'verificationid',
  'verificationId',
  'exchangeId',
  'exchangeid',
  'resetRequestId',
  'rprq',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'client_secret',
  'clientSecret',
  'apiKey',
];

/**
 * The server's logger (docs/operations.md, "Logs"): JSON lines, one per request with its id, route,
 * status, time, tenant and outcome; URLs with the values of secret query parameters replaced, secret
 * headers and fields censored. In development, on a terminal, readable lines through pino-pretty.
 */
export function loggerOptions(settings: LogSettings): FastifyServerOptions['logger'] {
  const headers = [...SECRET_HEADERS, ...(settings.secretHeaders ?? []).map((name) => name.toLowerCase())];
  const isPretty = !settings.stream && !settings.isProduction && process.stdout.isTTY === true;
  return {
    level: settings.level,
    ...(settings.stream ? { stream: settings.stream } : {}),
    ...(isPretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' },
          },
        }
      : {}),
    redact: {
      paths: [
        ...headers.flatMap((name) => [
          `req.headers["${name}"]`,
          `res.headers["${name}"]`,
          `headers["${name}"]`,
        ]),
        ...SECRET_FIELDS.flatMap((name) => [name, `*.${name}`]),
      ],
      censor: REDACTED,
    },
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactPath(redactUrl(request.url)),
        ip: request.ip,
      }),
    },
  };
}

/** The admin API's `/codes/{code}/…`: a registration code in the path, as secret as in a query. */
function redactPath(url: string): string {
  return url.replace(/(\/codes\/)[^/?]+/, `$1${REDACTED}`);
}

export interface LogNote {
  /** The tenant's subdomain, where the request named or implied a registry tenant. */
  tenant?: string;
  /** What came of it, where more is known than the status says (an error code, a webhook's outcome). */
  outcome?: string;
}

const notes = new WeakMap<FastifyRequest, LogNote>();

/** Adds to the request's log line (installRequestLog). */
export function noteForLog(request: FastifyRequest, note: LogNote): void {
  notes.set(request, { ...notes.get(request), ...note });
}

const PROBES = new Set(['/healthz', '/readyz']);
const CODE = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * One line per request when it is answered (Fastify's own request lines are off): request id, method,
 * redacted URL, route, status, time, tenant and outcome. The tenant is what the handler noted, else
 * the `subdomain` query parameter when it names a registry tenant; the outcome what the handler noted,
 * else the error code of the envelope answered, else the status class. Health probes log at debug.
 */
export function installRequestLog(app: FastifyInstance, isKnownTenant: (subdomain: string) => boolean): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode >= 400 && typeof payload === 'string' && payload.startsWith('{"success":false')) {
      const code = envelopeCode(payload);
      if (code && !notes.get(request)?.outcome) noteForLog(request, { outcome: code });
    }
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    const note = notes.get(request);
    const { subdomain } = (request.query ?? {}) as { subdomain?: unknown };
    const tenant =
      note?.tenant ?? (typeof subdomain === 'string' && isKnownTenant(subdomain) ? subdomain : undefined);
    const line = {
      req: request,
      route: request.routeOptions.url,
      statusCode: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime),
      ...(tenant ? { tenant } : {}),
      outcome: note?.outcome ?? outcomeOf(reply),
    };
    if (reply.statusCode >= 500) request.log.warn(line, 'request completed');
    else if (PROBES.has(request.url)) request.log.debug(line, 'request completed');
    else request.log.info(line, 'request completed');
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

function outcomeOf(reply: FastifyReply): string {
  const status = reply.statusCode;
  if (status < 300) return 'ok';
  if (status < 400) return 'redirect';
  return status < 500 ? 'refused' : 'failed';
}
