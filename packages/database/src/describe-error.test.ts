import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeDatabaseError, loggableError } from './describe-error';
import { type Database, openTestDatabase } from './open-database';
import { provokeUniqueViolation } from './test-errors';

const EMAIL = 'anna.secret@example.ch';

describe('describeDatabaseError', () => {
  let database: Database<unknown>;
  beforeAll(async () => {
    database = await openTestDatabase<unknown>('describeerror', {});
  });
  afterAll(() => database.close());

  it('keeps the SQLSTATE of a unique violation and drops the detail that quotes the row', async () => {
    const error = await provokeUniqueViolation(EMAIL);
    expect(JSON.stringify({ ...error })).toContain(EMAIL); // pg's own detail does quote it
    expect(describeDatabaseError(error)).toEqual({ name: 'DatabaseError', code: '23505' });
    expect(JSON.stringify(loggableError(error))).not.toContain(EMAIL);
  });

  it('drops a message that quotes the value too', async () => {
    const error = await sql`select ${EMAIL}::uuid`.execute(database.db).catch((reason: unknown) => reason);
    expect(String(error)).toContain(EMAIL);
    expect(loggableError(error)).toEqual({ name: 'DatabaseError', code: '22P02' });
  });

  it('finds a database error wrapped as a cause, and leaves other errors as they are', async () => {
    const cause = await provokeUniqueViolation(EMAIL);
    expect(describeDatabaseError(new Error('saving failed', { cause }))).toEqual({
      name: 'DatabaseError',
      code: '23505',
    });
    const plain = new Error('boom');
    expect(loggableError(plain)).toBe(plain);
    expect(describeDatabaseError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBeUndefined();
  });
});
