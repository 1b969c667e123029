import { REDACTED, redactUrl } from '@concierge/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { type RouteOf, routePattern } from './app-metrics';

export interface LogSettings {
  level: string;
  isProduction: boolean;
  /** Headers beyond the usual ones that carry a secret: the server's webhook API key header. */
  secretHeaders?: readonly string[];
  /** Field names beyond the usual ones whose values are secret in this app. */
  secretFields?: readonly string[];
  /** More of a URL to censor than the secret query parameters: a secret in the app's paths. */
  redactPath?: (url: string) => string;
  /** Where the lines go instead of standard output (tests). */
  stream?: { write(line: string): void };
}

const SECRET_HEADERS = ['authorization', 'cookie', 'set-cookie', 'x-api-key'];

/**
 * Field names whose values never reach a log line, wherever a log call puts them (top level or one
 * level down): a second line of defence, no log call names them on purpose. Both apps' names, since
 * a secret of one is no less secret in the other; what would hide an ordinary field in one app
 * (the provider's `code`, `username`) comes from that app's settings.
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
 * Fastify's logger for either app (docs/operations.md, "Logs"): JSON lines for the log collector; URLs
 * with the values of secret query parameters replaced (packages/contracts/src/log-redaction.ts), secret
 * headers and fields censored. In development, on a terminal, readable lines through pino-pretty.
 */
export function loggerOptions(settings: LogSettings): FastifyServerOptions['logger'] {
  const headers = [...SECRET_HEADERS, ...(settings.secretHeaders ?? []).map((name) => name.toLowerCase())];
  const fields = [...SECRET_FIELDS, ...(settings.secretFields ?? [])];
  const redactPath = settings.redactPath ?? ((url: string) => url);
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
        ...fields.flatMap((name) => [name, `*.${name}`]),
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

export interface LogNote {
  /** What came of the request, where more is known than the status says (an error code, a webhook's or a sign-in's outcome). */
  outcome?: string;
  /** The server's: the tenant's subdomain, where the request named or implied a registry tenant. */
  tenant?: string;
}

const notes = new WeakMap<FastifyRequest, LogNote>();

/** Adds to the request's log line (installRequestLog). */
export function noteForLog(request: FastifyRequest, note: LogNote): void {
  notes.set(request, { ...notes.get(request), ...note });
}

export interface RequestLogOptions {
  /** Paths logged at debug: the health probes, which poll all day. */
  probes: readonly string[];
  /** The route a line names; by default Fastify's pattern, as the request metrics count it. */
  routeOf?: RouteOf;
  /** What the line says where the handler noted nothing (the server: the query's tenant, the envelope's error code). */
  fallback?: (request: FastifyRequest) => LogNote;
}

/**
 * One line per request when it is answered (Fastify's own request lines are off): request id, method,
 * redacted URL, route, status, time, tenant where there is one, and outcome — what the handler noted,
 * else the fallback's, else the status class. Answers of 500 and more log at warn, probes at debug.
 */
export function installRequestLog(app: FastifyInstance, options: RequestLogOptions): void {
  const probes = new Set(options.probes);
  const routeOf = options.routeOf ?? routePattern;
  app.addHook('onResponse', async (request, reply) => {
    const note = notes.get(request);
    const fallback = options.fallback?.(request);
    const tenant = note?.tenant ?? fallback?.tenant;
    const line = {
      req: request,
      route: routeOf(request.routeOptions.url, request.url),
      statusCode: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime),
      ...(tenant ? { tenant } : {}),
      outcome: note?.outcome ?? fallback?.outcome ?? outcomeOf(reply),
    };
    if (reply.statusCode >= 500) request.log.warn(line, 'request completed');
    else if (probes.has(request.url)) request.log.debug(line, 'request completed');
    else request.log.info(line, 'request completed');
  });
}

function outcomeOf(reply: FastifyReply): string {
  const status = reply.statusCode;
  if (status < 300) return 'ok';
  if (status < 400) return 'redirect';
  return status < 500 ? 'refused' : 'failed';
}
