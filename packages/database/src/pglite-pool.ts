import type { PGlite } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

/**
 * Presents one PGlite instance as the pool Kysely's PostgresDialect expects. PGlite has a single
 * connection, so the pool hands it out to one holder at a time: a transaction keeps it until it
 * releases, and everybody else waits in line. (kysely-pglite-dialect does the same but declares
 * PGlite ≤ 0.4 as peer, which npm refuses to install beside 0.5.)
 */
export class PGlitePool implements PostgresPool {
  readonly #pglite: PGlite;
  #queue: Promise<void> = Promise.resolve();

  constructor(pglite: PGlite) {
    this.#pglite = pglite;
  }

  async connect(): Promise<PostgresPoolClient> {
    let release!: () => void;
    const turn = new Promise<void>((resolve) => {
      release = resolve;
    });
    const previous = this.#queue;
    this.#queue = previous.then(() => turn);
    await previous;
    const pglite = this.#pglite;
    let released = false;
    const client = {
      async query<R>(sql: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>> {
        const result = await pglite.query<R>(sql, parameters as unknown[]);
        const command = sql.trimStart().split(/\s/, 1)[0]!.toUpperCase() as PostgresQueryResult<R>['command'];
        return { command, rowCount: result.affectedRows ?? result.rows.length, rows: result.rows };
      },
      release() {
        if (released) return;
        released = true;
        release();
      },
    };
    // Kysely's client type also declares the cursor overload for streaming, which is never used here.
    return client as PostgresPoolClient;
  }

  async end(): Promise<void> {
    await this.#queue;
    await this.#pglite.close();
  }
}
