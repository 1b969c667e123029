import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { failure } from '@concierge/contracts';
import type { ConnectionError, FastifyInstance } from 'fastify';
import { securityHeadersOf } from './security-headers';

/**
 * Fastify's `clientErrorHandler` option: what Node refuses before Fastify sees a request (a header
 * section above its limit, bytes that are not HTTP, a request that took too long) is answered like
 * everything else — the envelope and the security headers — instead of Fastify's bare JSON. Written
 * to the socket: there is no response object yet. Bound to the Fastify instance by Fastify.
 */
export function answerClientError(this: FastifyInstance, error: ConnectionError, socket: Socket) {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'The request took too long.']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'The request headers are too large.']
        : [400, 'The request is not valid HTTP.'];
  this.log.debug({ code: error.code, status }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify(failure(status, 'invalid_request', message));
    const headers = {
      ...securityHeadersOf(this),
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
}
