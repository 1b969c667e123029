import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, type Migration, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { PGlitePool } from './pglite-pool';

export type DatabaseLocation =
  /** Embedded Postgres; without dataDir it lives in memory. */
  { kind: 'pglite'; dataDir?: string } | { kind: 'postgres'; url: string };

export interface OpenDatabaseOptions {
  location: DatabaseLocation;
  /** One schema per app: on PostgreSQL the apps share one database (ARCHITECTURE §2). */
  schema: string;
  migrations: Record<string, Migration>;
}

export interface Database<DB> {
  db: Kysely<DB>;
  schema: string;
  close(): Promise<void>;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Opens the app's database, creates its schema and runs its migrations before anything else. */
export async function openDatabase<DB>(options: OpenDatabaseOptions): Promise<Database<DB>> {
  const { location, schema, migrations } = options;
  if (!SCHEMA_NAME.test(schema)) throw new Error(`Invalid schema name "${schema}"`);
  const db = new Kysely<DB>({ dialect: await createDialect(location, schema) });
  try {
    await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
    const migrator = new Migrator({
      db,
      migrationTableSchema: schema,
      provider: { getMigrations: async () => migrations },
    });
    const { error, results } = await migrator.migrateToLatest();
    if (error) {
      const failed = results?.find((result) => result.status === 'Error')?.migrationName;
      throw new Error(`Migration ${failed ?? ''} of schema "${schema}" failed: ${String(error)}`, {
        cause: error,
      });
    }
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return { db, schema, close: () => db.destroy() };
}

async function createDialect(location: DatabaseLocation, schema: string): Promise<PostgresDialect> {
  if (location.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: location.url,
      options: `-c search_path=${schema}`,
      max: 10,
      connectionTimeoutMillis: 10_000,
      statement_timeout: 15_000,
    });
    return new PostgresDialect({ pool });
  }
  if (location.dataDir) await mkdir(location.dataDir, { recursive: true });
  const pglite = await PGlite.create(location.dataDir ?? 'memory://');
  await pglite.exec(`create schema if not exists ${schema}; set search_path to ${schema};`);
  return new PostgresDialect({ pool: new PGlitePool(pglite) });
}

/**
 * A database of its own for one test file: an in-memory PGlite, or — when DATABASE_URL is set, as in
 * CI's PostgreSQL run — a fresh schema on that server, dropped again on close.
 */
export async function openTestDatabase<DB>(
  schemaPrefix: string,
  migrations: Record<string, Migration>,
): Promise<Database<DB>> {
  const url = process.env.DATABASE_URL;
  if (!url) return openDatabase<DB>({ location: { kind: 'pglite' }, schema: schemaPrefix, migrations });
  const schema = `${schemaPrefix}_t${randomBytes(4).toString('hex')}`;
  const opened = await openDatabase<DB>({ location: { kind: 'postgres', url }, schema, migrations });
  return {
    ...opened,
    async close() {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(opened.db);
      await opened.close();
    },
  };
}

/** DATABASE_URL wins; otherwise PGlite in the app's own directory. */
export function databaseLocationFromEnv(defaultDataDir: string, env = process.env): DatabaseLocation {
  return env.DATABASE_URL
    ? { kind: 'postgres', url: env.DATABASE_URL }
    : { kind: 'pglite', dataDir: defaultDataDir };
}
