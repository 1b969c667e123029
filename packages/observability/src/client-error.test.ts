import type { Socket } from 'node:net';
import type { ConnectionError, FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { clientErrorHandler } from './client-error';

// The answer to what Node refuses before Fastify sees a request, written to the socket by hand.
// Each app's own envelope and headers over a real socket: apps/server/src/app.test.ts,
// apps/provider/src/routes/security-headers.test.ts.

const handler = clientErrorHandler({
  envelope: (status, message) => ({ success: false, status, message }),
  headers: () => ({ 'X-Frame-Options': 'DENY', 'x-several': ['one', 'two'], 'x-absent': undefined }),
});

function refuse(code: string, socket: Partial<Socket> = {}) {
  const written: string[] = [];
  const debug: unknown[] = [];
  let destroyedWith: unknown;
  const fakeSocket = {
    destroyed: false,
    writable: true,
    write: (chunk: string) => written.push(chunk) > 0,
    destroy: (error?: Error) => {
      destroyedWith = error;
    },
    ...socket,
  } as unknown as Socket;
  const app = { log: { debug: (...args: unknown[]) => debug.push(args) } } as unknown as FastifyInstance;
  const error = Object.assign(new Error(code), { code }) as ConnectionError;
  handler.call(app, error, fakeSocket);
  const [head = '', body = ''] = (written[0] ?? '').split('\r\n\r\n');
  const [statusLine, ...headerLines] = head.split('\r\n');
  return { written, debug, destroyedWith, error, statusLine, headerLines, body };
}

describe('the client-error answer', () => {
  it.each([
    ['HPE_HEADER_OVERFLOW', 431, 'Request Header Fields Too Large', 'The request headers are too large.'],
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'Request Timeout', 'The request took too long.'],
    ['HPE_INVALID_HEADER_TOKEN', 400, 'Bad Request', 'The request is not valid HTTP.'],
  ])('answers %s with %i, the app’s envelope and headers, and closes', (code, status, reason, message) => {
    const answer = refuse(code);
    expect(answer.statusLine).toBe(`HTTP/1.1 ${status} ${reason}`);
    expect(JSON.parse(answer.body)).toEqual({ success: false, status, message });
    // A fresh request id, the one the debug line names.
    const reqId = /^x-request-id: ([0-9a-f-]{36})$/.exec(answer.headerLines[3] ?? '')?.[1];
    expect(answer.headerLines).toEqual([
      'X-Frame-Options: DENY',
      'x-several: one',
      'x-several: two',
      `x-request-id: ${reqId}`,
      'content-type: application/json; charset=utf-8',
      `content-length: ${Buffer.byteLength(answer.body)}`,
      'connection: close',
    ]);
    expect(reqId).toBeDefined();
    expect(refuse(code).headerLines[3]).not.toBe(answer.headerLines[3]);
    expect(answer.destroyedWith).toBe(answer.error);
    expect(answer.debug).toEqual([[{ reqId, code, status }, 'client error']]);
  });

  it('answers nobody on a reset or destroyed connection', () => {
    expect(refuse('ECONNRESET')).toMatchObject({ written: [], debug: [], destroyedWith: undefined });
    expect(refuse('HPE_HEADER_OVERFLOW', { destroyed: true })).toMatchObject({ written: [], debug: [] });
  });

  it('only closes a connection that can no longer be written to', () => {
    const answer = refuse('HPE_HEADER_OVERFLOW', { writable: false });
    expect(answer.written).toEqual([]);
    expect(answer.destroyedWith).toBe(answer.error);
  });
});
