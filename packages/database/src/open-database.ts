import { randomBytes } from 'node:crypto';
import { Kysely, type Migration, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';

/**
 * Always a real PostgreSQL server: production's, or the embedded one `npm start` and the tests start
 * (scripts/embedded-postgres.mjs). One driver and one dialect everywhere (docs/decisions.md).
 */
export interface DatabaseLocation {
  kind: 'postgres';
  url: string;
}

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
/** Each opened Kysely instance's pool, for poolStatsOf. */
const pools = new WeakMap<object, pg.Pool>();

/** Opens the app's database, creates its schema and runs its migrations before anything else. */
export async function openDatabase<DB>(options: OpenDatabaseOptions): Promise<Database<DB>> {
  const { location, schema, migrations } = options;
  if (!SCHEMA_NAME.test(schema)) throw new Error(`Invalid schema name "${schema}"`);
  const pool = createPool(location, schema);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  pools.set(db, pool);
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

function createPool(location: DatabaseLocation, schema: string): pg.Pool {
  return new pg.Pool({
    connectionString: location.url,
    options: `-c search_path=${schema}`,
    max: 10,
    connectionTimeoutMillis: 10_000,
    statement_timeout: 15_000,
  });
}

/** The connection pool of a database, for metrics: connections open, idle, and queries waiting for one. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/** The pool under a Kysely instance opened here; undefined for any other. */
export function poolStatsOf(db: object): PoolStats | undefined {
  const pool = pools.get(db);
  return pool && { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
}

/**
 * A database of its own for one test file: a fresh schema on the PostgreSQL server of DATABASE_URL
 * (the embedded one the test run's global setup started, or CI's), dropped again on close.
 */
export async function openTestDatabase<DB>(
  schemaPrefix: string,
  migrations: Record<string, Migration>,
): Promise<Database<DB>> {
  const { url } = databaseLocationFromEnv();
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

/** The PostgreSQL server of DATABASE_URL; `npm start` and `npm test` set it for the embedded one. */
export function databaseLocationFromEnv(env = process.env): DatabaseLocation {
  if (!env.DATABASE_URL) {
    throw new Error(
      'DATABASE_URL is not set: point it at PostgreSQL (npm start and npm test start an embedded one and set it).',
    );
  }
  return { kind: 'postgres', url: env.DATABASE_URL };
}

/**
 * A database of its own on the server of `url`, for a process that owns fixed schema names (an
 * embedded provider started by a test): created now, dropped by `drop`.
 */
export async function createThrowAwayDatabase(
  url: string,
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const own = new URL(url);
  own.pathname = `/${name}`;
  return {
    url: own.href,
    async drop() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
