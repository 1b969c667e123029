import type { Kysely } from '@concierge/database';
import type { FastifyInstance } from 'fastify';
import type { ServerTables } from '../db/schema';

/**
 * A caller of the admin API (`/api/admin…`) in the app itself (`app` gives it once the test's server
 * has started), as an operator's token sends it; a call may name another token, or none (`''`).
 */
export function adminApi(app: () => FastifyInstance, token: string) {
  return (method: 'GET' | 'POST', url: string, body?: unknown, as = token) =>
    app().inject({
      method,
      url: `/api/admin${url}`,
      headers: {
        ...(as ? { authorization: `Bearer ${as}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
}

/** How many registration codes the tenant has, whatever their state. */
export async function countCodes(db: Kysely<ServerTables>, tenant: string): Promise<number> {
  const { count } = await db
    .selectFrom('registration_codes')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('tenant', '=', tenant)
    .executeTakeFirstOrThrow();
  return Number(count);
}
