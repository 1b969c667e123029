import { sql } from 'kysely';
import { openTestDatabase } from './open-database';

/**
 * A real pg DatabaseError whose detail quotes `value` (a unique violation: "Key (email)=(…) already
 * exists."), for tests that check what reaches the log. Needs the test run's PostgreSQL.
 */
export async function provokeUniqueViolation(value: string): Promise<Error> {
  const database = await openTestDatabase<unknown>('uniqueviolation', {});
  try {
    await sql`create table emails (email text primary key)`.execute(database.db);
    await sql`insert into emails values (${value})`.execute(database.db);
    await sql`insert into emails values (${value})`.execute(database.db);
  } catch (error) {
    if (error instanceof Error) return error;
    throw error;
  } finally {
    await database.close();
  }
  throw new Error('the second insert was not refused');
}
