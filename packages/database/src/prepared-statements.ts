import { createHash } from 'node:crypto';
import type { CompiledQuery } from 'kysely';
import type pg from 'pg';

/**
 * Statement texts that run as named prepared statements: PostgreSQL parses and plans each once per
 * connection instead of for every call. Measured on the failed-login counter's one statement, which
 * the login page asks before every sign-in: PostgreSQL's CPU per request 0.65–0.72 → 0.30 ms, the
 * server's 538 → 465–483 µs (docs/decisions.md, "Server CPU per arrival"). Only the texts a caller marks
 * (the statements behind nearly every answer), and at most MAX_PREPARED of them: each one costs
 * PostgreSQL memory on every pooled connection until the connection closes.
 */
const preparedNames = new Map<string, string>();
const MAX_PREPARED = 32;

/**
 * Marks a compiled query's text to run as a prepared statement, and returns the query for
 * `db.executeQuery`. Its parameters stay parameters: only the text is kept, and the same text is
 * the same statement whatever its values. Past MAX_PREPARED texts a query runs as any other does.
 */
export function prepared<R>(query: CompiledQuery<R>): CompiledQuery<R> {
  if (!preparedNames.has(query.sql) && preparedNames.size < MAX_PREPARED) {
    // Named by the text itself: one name is never two statements on a connection.
    const hash = createHash('sha256').update(query.sql).digest('hex').slice(0, 32);
    preparedNames.set(query.sql, `concierge_${hash}`);
  }
  return query;
}

/**
 * Makes a pooled client run the marked texts by their names. Kysely sends every statement as
 * `query(text, values)`; pg prepares a named statement on its connection the first time it sees the
 * name and only binds and executes it after that. Any other call goes through unchanged.
 */
export function runMarkedTextsPrepared(client: pg.PoolClient): void {
  const query = client.query;
  client.query = function queryMarkedPrepared(this: pg.PoolClient, ...args: unknown[]) {
    const [text, values] = args;
    const name = args.length === 2 && typeof text === 'string' ? preparedNames.get(text) : undefined;
    if (name === undefined) return Reflect.apply(query, this, args);
    return Reflect.apply(query, this, [{ name, text, values }]);
  } as typeof client.query;
}
