import { type Migration, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createThrowAwayDatabase, databaseLocationFromEnv, openDatabase } from './open-database';

// What a start says about the migrations, for its log line: the ones it found applied, the ones it ran.

const migration = (table: string): Migration => ({
  async up(db) {
    await db.schema.createTable(table).addColumn('id', 'integer').execute();
  },
});
const release1 = { '0001_first': migration('first'), '0002_second': migration('second') };
const release2 = { ...release1, '0003_third': migration('third') };

describe('the migration report of a start', () => {
  let throwAway: { url: string; drop(): Promise<void> };
  beforeAll(async () => {
    throwAway = await createThrowAwayDatabase(databaseLocationFromEnv().url, 'report');
  });
  afterAll(() => throwAway?.drop());

  it('names what ran on a new schema, on a restart and on an upgrade, and what was there before', async () => {
    const open = async (migrations: Record<string, Migration>) => {
      const database = await openDatabase({
        location: { kind: 'postgres', url: throwAway.url },
        schema: 'reported',
        migrations,
      });
      const { rows } = await sql<{ name: string }>`
        select table_name as name from information_schema.tables
        where table_schema = 'reported' and table_name not like 'kysely%' order by table_name`.execute(
        database.db,
      );
      await database.close();
      return { ...database.migrations, tables: rows.map((row) => row.name) };
    };
    expect(await open(release1)).toEqual({
      applied: [],
      ran: ['0001_first', '0002_second'],
      newer: [],
      tables: ['first', 'second'],
    });
    expect(await open(release1)).toEqual({
      applied: ['0001_first', '0002_second'],
      ran: [],
      newer: [],
      tables: ['first', 'second'],
    });
    expect(await open(release2)).toEqual({
      applied: ['0001_first', '0002_second'],
      ran: ['0003_third'],
      newer: [],
      tables: ['first', 'second', 'third'],
    });
    // Rolled back: the older build starts on the newer schema, migrating nothing.
    expect(await open(release1)).toEqual({
      applied: ['0001_first', '0002_second'],
      ran: [],
      newer: ['0003_third'],
      tables: ['first', 'second', 'third'],
    });
    // And forward again: nothing left to run.
    expect(await open(release2)).toMatchObject({ ran: [], newer: [] });
  });

  it('still refuses a schema that lacks one of its own migrations in between', async () => {
    const gap = { '0001_first': migration('gap_first'), '0005_later': migration('gap_later') };
    const opened = await openDatabase({
      location: { kind: 'postgres', url: throwAway.url },
      schema: 'gapped',
      migrations: gap,
    });
    await opened.close();
    const withOneBetween = { ...gap, '0003_between': migration('gap_between') };
    const unknownLast = { '0001_first': gap['0001_first'], '0003_between': withOneBetween['0003_between'] };
    await expect(
      openDatabase({
        location: { kind: 'postgres', url: throwAway.url },
        schema: 'gapped',
        migrations: unknownLast,
      }),
    ).rejects.toThrow();
  });
});
