import { randomBytes } from 'node:crypto';
import { type Migration, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  createThrowAwayDatabase,
  type Database,
  databaseLocationFromEnv,
  openDatabase,
} from './open-database';

interface Tables {
  runs: { migration: string };
}

// Each migration notes that it ran; the first one is slow, so that the starts overlap while it runs.
const migrations: Record<string, Migration> = {
  '0001_runs': {
    async up(db) {
      await db.schema.createTable('runs').addColumn('migration', 'text').execute();
      await sql`select pg_sleep(0.2)`.execute(db);
      await sql`insert into runs values ('0001')`.execute(db);
    },
  },
  '0002_more': {
    async up(db) {
      await sql`insert into runs values ('0002')`.execute(db);
    },
  },
};

describe('several instances starting at once on one PostgreSQL', () => {
  it('create the schema and run each migration exactly once, all of them starting', async () => {
    // A database of its own (openTestDatabase says why): this test creates and drops schemas.
    const database = await createThrowAwayDatabase(databaseLocationFromEnv().url, 'concurrent');
    const location = { kind: 'postgres' as const, url: database.url };
    // The race on the schema is narrow: a few rounds of six starts meet it reliably without the lock.
    try {
      for (let round = 0; round < 4; round += 1) {
        const schema = `concurrent_${randomBytes(4).toString('hex')}`;
        const starts = await Promise.allSettled(
          Array.from({ length: 6 }, () => openDatabase<Tables>({ location, schema, migrations })),
        );
        const opened = starts.flatMap((start) => (start.status === 'fulfilled' ? [start.value] : []));
        try {
          expect(starts.filter((start) => start.status === 'rejected')).toEqual([]);
          const db = (opened[0] as Database<Tables>).db;
          const runs = await db.selectFrom('runs').select('migration').orderBy('migration').execute();
          expect(runs.map((run) => run.migration)).toEqual(['0001', '0002']);
          // Each start's log says so: one of them ran both, the others found both applied.
          expect(opened.flatMap((opening) => opening.migrations.ran).sort()).toEqual([
            '0001_runs',
            '0002_more',
          ]);
          expect(opened.filter((opening) => opening.migrations.applied.length === 2)).toHaveLength(5);
          // The lock is given back: one more start (a restart) goes through at once.
          const again = await openDatabase<Tables>({ location, schema, migrations });
          await again.close();
        } finally {
          if (opened[0]) await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(opened[0].db);
          await Promise.all(opened.map((opening) => opening.close()));
        }
      }
    } finally {
      await database.drop();
    }
  });
});
