import { randomUUID } from 'node:crypto';
import { type OutgoingHttpHeaders, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyInstance } from 'fastify';
import { REQUEST_ID_HEADER } from './request-id';

export interface ClientErrorAnswer {
  /** The app's error envelope for a refused request, in the app's own codes. */
  envelope(status: number, message: string): unknown;
  /** The security headers this app's answers carry: they differ between the apps. */
  headers(app: FastifyInstance): OutgoingHttpHeaders;
}

/**
 * For Fastify's `clientErrorHandler` option: what Node refuses before Fastify sees a request (a
 * header section above its limit, bytes that are not HTTP, a request that took too long) is answered
 * like everything else — the app's envelope and security headers, and a request id — instead of
 * Fastify's bare JSON, and logged at debug. Written to the socket: there is no response object yet.
 * The id is always a fresh one: what the request's headers say is not known to be HTTP. Fastify binds
 * the handler to its instance.
 */
export function clientErrorHandler(answer: ClientErrorAnswer) {
  return function answerClientError(this: FastifyInstance, error: ConnectionError, socket: Socket): void {
    // A reset connection has nobody to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, message] =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request took too long.']
        : error.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'The request headers are too large.']
          : [400, 'The request is not valid HTTP.'];
    const reqId = randomUUID();
    this.log.debug({ reqId, code: error.code, status }, 'client error');
    if (socket.writable) {
      const body = JSON.stringify(answer.envelope(status, message));
      const headers = {
        ...answer.headers(this),
        [REQUEST_ID_HEADER]: reqId,
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
        connection: 'close',
      };
      const lines = Object.entries(headers).flatMap(([name, value]) =>
        value === undefined ? [] : [value].flat().map((one) => `${name}: ${one}\r\n`),
      );
      socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.join('')}\r\n${body}`);
    }
    socket.destroy(error);
  };
}
