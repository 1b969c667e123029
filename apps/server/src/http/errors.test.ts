import { Writable } from 'node:stream';
import { provokeUniqueViolation } from '@concierge/database';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { installErrorHandler } from './errors';

const EMAIL = 'anna.secret@example.ch';

/** The log lines an app writes, as text. */
function logCapture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => lines.join('') };
}

describe('the error handler', () => {
  it('logs a database error by name, SQLSTATE and reference number, never the values it quotes', async () => {
    const error = await provokeUniqueViolation(EMAIL);
    const log = logCapture();
    const app = Fastify({ logger: { stream: log.stream } });
    installErrorHandler(app);
    app.get('/fails', async () => {
      throw error;
    });

    const response = await app.inject({ url: '/fails' });
    expect(response.statusCode).toBe(500);
    const { referenceNumber } = response.json().error;
    expect(referenceNumber).toBeTruthy();
    const text = log.text();
    expect(text).not.toContain(EMAIL);
    const entry = JSON.parse(text.split('\n').find((line) => line.includes('unhandled error')) ?? '{}');
    expect(entry).toMatchObject({ referenceNumber, err: { name: 'DatabaseError', code: '23505' } });
    await app.close();
  });
});
