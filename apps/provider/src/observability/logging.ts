import { REDACTED, redactUrl } from '@concierge/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { routeOf } from './metrics';

export interface LogSettings {
  level: string;
  isProduction: boolean;
  /** Where the lines go instead of standard output (tests). */
  stream?: { write(line: string): void };
}

const SECRET_HEADERS = ['authorization', 'cookie', 'set-cookie', 'x-api-key'];

/**
 * Field names whose values never reach a log line, wherever a log call puts them (top level or one
 * level down): a second line of defence, no log call here names them on purpose. (The auth events
 * name an e-mail only by its hash, `emailHash`.)
 */
const SECRET_FIELDS = [
  'password',
  'confirmPassword',
  'password_echo',
  'email',
  'username',
  'exchangeId',
  'resetRequestId',
  'rprq',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'code',
  'code_verifier',
  'client_secret',
  'apiKey',
];

/**
 * The provider's logger (docs/operations.md, "Logs"): JSON lines, one per request with its id,
 * route, status, time and outcome; URLs with the values of secret query parameters replaced
 * (authorization codes, id_token_hint, e-mails), secret headers and fields censored. In development,
 * on a terminal, readable lines through pino-pretty.
 */
export function loggerOptions(settings: LogSettings): FastifyServerOptions['logger'] {
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
        ...SECRET_HEADERS.flatMap((name) => [
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
        url: redactUrl(request.url),
        ip: request.ip,
      }),
    },
  };
}

const notes = new WeakMap<FastifyRequest, string>();

/** What came of the request, for its log line, where more is known than the status says. */
export function noteOutcome(request: FastifyRequest, outcome: string): void {
  notes.set(request, outcome);
}

/**
 * One line per request when it is answered (Fastify's own request lines are off): request id,
 * method, redacted URL, route, status, time and outcome (as noted, else the status class). The
 * health probe logs at debug.
 */
export function installRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    const line = {
      req: request,
      route: routeOf(request.routeOptions.url, request.url),
      statusCode: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime),
      outcome: notes.get(request) ?? outcomeOf(reply),
    };
    if (reply.statusCode >= 500) request.log.warn(line, 'request completed');
    else if (request.url === '/healthz') request.log.debug(line, 'request completed');
    else request.log.info(line, 'request completed');
  });
}

function outcomeOf(reply: FastifyReply): string {
  const status = reply.statusCode;
  if (status < 300) return 'ok';
  if (status < 400) return 'redirect';
  return status < 500 ? 'refused' : 'failed';
}
