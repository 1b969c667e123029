import { Writable } from 'node:stream';
import { provokeUniqueViolation } from '@concierge/database';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { AppError, installErrorHandler, tooManyRequests } from './errors';

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

describe('Retry-After', () => {
  it('comes with an AppError that knows its wait, in whole seconds, and only then', async () => {
    const app = Fastify();
    installErrorHandler(app);
    app.get('/limited', async () => {
      throw tooManyRequests(599.2);
    });
    app.get('/refused', async () => {
      throw new AppError(409, 'email_already_registered_db', 'This e-mail address is already registered.');
    });

    const limited = await app.inject({ url: '/limited' });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('600');
    expect(limited.json()).toMatchObject({ status: 429, error: { code: 'too_many_requests' } });
    const refused = await app.inject({ url: '/refused' });
    expect(refused.statusCode).toBe(409);
    expect(refused.headers['retry-after']).toBeUndefined();
    await app.close();
  });
});
