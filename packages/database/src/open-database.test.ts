import { type Migration, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openTestDatabase } from './open-database';
import { prepared } from './prepared-statements';

interface Counters {
  counters: { name: string; value: number };
}

const migrations: Record<string, Migration> = {
  '0001_counters': {
    async up(db) {
      await db.schema
        .createTable('counters')
        .addColumn('name', 'text', (column) => column.primaryKey())
        .addColumn('value', 'integer', (column) => column.notNull())
        .execute();
    },
  },
};

describe('openTestDatabase', () => {
  let database: Database<Counters>;
  beforeAll(async () => {
    database = await openTestDatabase<Counters>('dbtest', migrations);
  });
  afterAll(() => database.close());

  it('runs the migrations into the app schema', async () => {
    await database.db.insertInto('counters').values({ name: 'a', value: 1 }).execute();
    const row = await database.db.selectFrom('counters').selectAll().executeTakeFirstOrThrow();
    expect(row).toEqual({ name: 'a', value: 1 });
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db);
    expect(rows[0]?.schema).toBe(database.schema);
  });

  it('rolls a failed transaction back whole and keeps serving queries meanwhile', async () => {
    await database.db.insertInto('counters').values({ name: 'b', value: 1 }).execute();
    const failing = database.db.transaction().execute(async (trx) => {
      await trx.updateTable('counters').set({ value: 99 }).where('name', '=', 'b').execute();
      throw new Error('abort');
    });
    const reading = database.db
      .selectFrom('counters')
      .select('value')
      .where('name', '=', 'b')
      .executeTakeFirst();
    await expect(failing).rejects.toThrow('abort');
    expect((await reading)?.value).toBe(1);
    const after = await database.db
      .selectFrom('counters')
      .select('value')
      .where('name', '=', 'b')
      .executeTakeFirst();
    expect(after?.value).toBe(1);
  });

  it('runs a marked statement prepared on its connection, and any other as it is', async () => {
    const names = await database.db.connection().execute(async (connection) => {
      const marked = prepared(
        sql<Counters['counters']>`select name, value from counters where name = ${'a'}`.compile(connection),
      );
      const first = await connection.executeQuery(marked);
      const second = await connection.executeQuery(prepared(marked));
      expect(second.rows).toEqual(first.rows);
      await sql`select count(*) from counters where value > ${0}`.execute(connection);
      const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
        connection,
      );
      return rows.map((row) => row.statement);
    });
    expect(names).toEqual([expect.stringContaining('select name, value from counters where name = $1')]);
  });
});
