import { Writable } from 'node:stream';
import { provokeUniqueViolation } from '@concierge/database';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { envelopeErrorHandler } from './envelope-errors';

const EMAIL = 'anna.secret@example.ch';

describe('envelopeErrorHandler', () => {
  it('logs a database error by name, SQLSTATE and reference number, never the values it quotes', async () => {
    const error = await provokeUniqueViolation(EMAIL);
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = Fastify({ logger: { stream } });
    app.setErrorHandler(envelopeErrorHandler);
    app.get('/fails', async () => {
      throw error;
    });

    const response = await app.inject({ url: '/fails' });
    expect(response.statusCode).toBe(500);
    const { referenceNumber } = response.json().error;
    expect(referenceNumber).toBeTruthy();
    expect(lines.join('')).not.toContain(EMAIL);
    const entry = JSON.parse(lines.find((line) => line.includes('unexpected error')) ?? '{}');
    expect(entry).toMatchObject({ referenceNumber, err: { name: 'DatabaseError', code: '23505' } });
    await app.close();
  });
});
