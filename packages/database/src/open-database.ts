import { randomBytes } from 'node:crypto';
import { Kysely, type LogEvent, type Migration, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { runMarkedTextsPrepared } from './prepared-statements';

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
  /**
   * Told when a pooled connection breaks (PostgreSQL restarted, a failover, the network), idle or
   * checked out: the pool drops it, the query on it fails by itself and the next one opens a new
   * connection, so this is for the log only.
   */
  onConnectionError?: (error: Error) => void;
  /**
   * Told of each statement when it has ended, with its text (parameters as `$1`, `$2`, …, never
   * their values) and duration, or its error: Kysely's `log`. The server's traces (its spans per
   * statement); unset, Kysely times nothing.
   */
  log?: (event: LogEvent) => void;
}

/** The migrations of the schema as this start found and left them, by name, in the order they ran. */
export interface MigrationReport {
  /** Applied before this start (by an earlier one, or by another instance that got the lock first). */
  applied: string[];
  /** Run by this start. */
  ran: string[];
  /**
   * Applied by a newer build, unknown to this one: it started without migrating (a rollback, or an
   * older instance restarting during a rollout). Migrations only add, so the older build works on
   * the newer schema (docs/operations.md, "Upgrading").
   */
  newer: string[];
}

export interface Database<DB> {
  db: Kysely<DB>;
  schema: string;
  /** Where it is: what a connection of its own (a LISTEN) connects to. */
  url: string;
  /** For the start's log line: an upgrade's migrations show there (docs/operations.md, "Upgrading"). */
  migrations: MigrationReport;
  close(): Promise<void>;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
/** Each opened Kysely instance's pool, for poolStatsOf. */
const pools = new WeakMap<object, pg.Pool>();

/**
 * The first key of the advisory lock that serialises schema creation and migrations (the second is
 * the schema's hash): an arbitrary constant of ours, apart from Kysely's own single-key lock.
 */
const MIGRATION_LOCK_CLASS = 0x436f6e63; // "Conc"

/** Opens the app's database, creates its schema and runs its migrations before anything else. */
export async function openDatabase<DB>(options: OpenDatabaseOptions): Promise<Database<DB>> {
  const { location, schema, migrations } = options;
  if (!SCHEMA_NAME.test(schema)) throw new Error(`Invalid schema name "${schema}"`);
  const pool = createPool(location, schema);
  // pg emits 'error' on a client whose connection breaks, and an 'error' nobody listens to ends the
  // process. The pool listens on idle clients only; a client that is checked out — a transaction
  // between two statements, or a query whose answer came just before the socket closed — has no
  // listener of its own. So every client gets one for its whole life (the query on it fails anyway,
  // as unavailable), and the pool's re-emission of an idle client's error is already told by it.
  // Each client also runs the texts marked as prepared statements by their names.
  pool.on('connect', (client) => {
    client.on('error', (error) => options.onConnectionError?.(error));
    runMarkedTextsPrepared(client);
  });
  pool.on('error', () => undefined);
  const db = new Kysely<DB>({
    dialect: new PostgresDialect({ pool }),
    ...(options.log ? { log: options.log } : {}),
  });
  pools.set(db, pool);
  let report: MigrationReport;
  try {
    report = await db.connection().execute((connection) => migrateUnderLock(connection, schema, migrations));
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return { db, schema, url: location.url, migrations: report, close: () => db.destroy() };
}

/**
 * Creates the schema and runs the migrations while holding a session advisory lock for the schema,
 * on one connection. Several instances starting at once on one PostgreSQL then migrate one after
 * the other, and the later ones find nothing left to do: `create schema if not exists` alone is not
 * safe in parallel (two sessions both miss the schema, one fails on the catalogue's unique index).
 * The lock goes with the session if the process dies. The request-time statement timeout is off
 * meanwhile: waiting for another instance's migrations, or a migration building an index on a large
 * table, may take longer than any query should.
 */
async function migrateUnderLock<DB>(
  connection: Kysely<DB>,
  schema: string,
  migrations: Record<string, Migration>,
): Promise<MigrationReport> {
  await sql`set statement_timeout = 0`.execute(connection);
  await sql`select pg_advisory_lock(${MIGRATION_LOCK_CLASS}, hashtext(${schema}))`.execute(connection);
  try {
    await sql`create schema if not exists ${sql.id(schema)}`.execute(connection);
    const migrator = new Migrator({
      db: connection,
      migrationTableSchema: schema,
      provider: { getMigrations: async () => migrations },
    });
    // Read under the lock: what another instance migrated a moment ago counts as applied before.
    const applied = (await migrator.getMigrations())
      .filter((migration) => migration.executedAt !== undefined)
      .map((migration) => migration.name);
    const newer = await newerMigrations(connection, schema, Object.keys(migrations));
    if (newer.length > 0) return { applied, ran: [], newer };
    const { error, results } = await migrator.migrateToLatest();
    if (error) {
      const failed = results?.find((result) => result.status === 'Error')?.migrationName;
      throw new Error(`Migration ${failed ?? ''} of schema "${schema}" failed: ${String(error)}`, {
        cause: error,
      });
    }
    const ran = (results ?? [])
      .filter((result) => result.status === 'Success')
      .map((result) => result.migrationName);
    return { applied, ran, newer: [] };
  } finally {
    await sql`select pg_advisory_unlock(${MIGRATION_LOCK_CLASS}, hashtext(${schema}))`.execute(connection);
    // Back to the pool's statement timeout (a connection parameter, which RESET returns to).
    await sql`reset statement_timeout`.execute(connection);
  }
}

/**
 * The migrations a newer build applied to the schema, which this build does not know. Kysely
 * refuses to start then ("corrupted migrations"), which would rule out a rollback and an old
 * instance restarting during a rollout. They are accepted only as a newer build leaves them: every
 * migration of this build applied, the unknown ones all after them. Anything else (one of this
 * build's missing in between) is refused as before, by Kysely.
 */
async function newerMigrations<DB>(
  connection: Kysely<DB>,
  schema: string,
  known: string[],
): Promise<string[]> {
  const table = `${schema}.kysely_migration`;
  const { rows: exists } = await sql<{ found: string | null }>`select to_regclass(${table}) as found`.execute(
    connection,
  );
  if (!exists[0]?.found) return [];
  const { rows } = await sql<{ name: string }>`
    select name from ${sql.id(schema, 'kysely_migration')} order by name`.execute(connection);
  const executed = rows.map((row) => row.name);
  const unknown = executed.filter((name) => !known.includes(name));
  const newest = [...known].sort().at(-1) ?? '';
  const isNewerBuilds =
    known.every((name) => executed.includes(name)) && unknown.every((name) => name > newest);
  return unknown.length > 0 && isNewerBuilds ? unknown : [];
}

/** Connections per process at most (docs/operations.md, "PostgreSQL: pool and outages"). */
const POOL_MAX = 10;

function createPool(location: DatabaseLocation, schema: string): pg.Pool {
  return new pg.Pool({
    connectionString: location.url,
    options: `-c search_path=${schema}`,
    max: POOL_MAX,
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

/**
 * The pool under a Kysely instance opened here; undefined for any other. `waiting` counts the
 * queries that wait for a connection to come back: pg's `waitingCount` also holds every checkout
 * that found an idle connection (pg queues it and hands the connection over on the next tick), so a
 * scrape whose own gauges query the database read 2 on an idle pool. Those, and the ones a new
 * connection is opened for while the pool has room, are not waiting for another query to finish.
 */
export function poolStatsOf(db: object): PoolStats | undefined {
  const pool = pools.get(db);
  if (!pool) return undefined;
  const room = Math.max(0, (pool.options.max ?? POOL_MAX) - pool.totalCount);
  const waiting = Math.max(0, pool.waitingCount - pool.idleCount - room);
  return { total: pool.totalCount, idle: pool.idleCount, waiting };
}

/**
 * A database of its own for one test file, on the PostgreSQL server of DATABASE_URL (the embedded
 * one the test run's global setup started, or CI's), with the schema in it; dropped again on close.
 * A database, not only a schema in a shared one: the migrator lists the tables of every schema of
 * its database, and that listing fails ("schema … does not exist") when another file drops its
 * schema meanwhile. Databases keep their catalogs apart.
 */
export async function openTestDatabase<DB>(
  schemaPrefix: string,
  migrations: Record<string, Migration>,
  options: Pick<OpenDatabaseOptions, 'log'> = {},
): Promise<Database<DB>> {
  const database = await createThrowAwayDatabase(databaseLocationFromEnv().url, 'test');
  const schema = `${schemaPrefix}_t${randomBytes(4).toString('hex')}`;
  try {
    const opened = await openDatabase<DB>({
      location: { kind: 'postgres', url: database.url },
      schema,
      migrations,
      ...options,
    });
    return {
      ...opened,
      async close() {
        await opened.close();
        await database.drop();
      },
    };
  } catch (error) {
    await database.drop();
    throw error;
  }
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
