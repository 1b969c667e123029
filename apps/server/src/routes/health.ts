import { type Kysely, loggableError, sql } from '@concierge/database';
import type { FastifyInstance } from 'fastify';
import type { ServerTables } from '../db/schema';

/** /healthz: the process answers. /readyz: it can also reach its database. */
export async function healthRoutes(app: FastifyInstance, options: { db: Kysely<ServerTables> }) {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (request, reply) => {
    try {
      await sql`select 1`.execute(options.db);
      return { status: 'ready' };
    } catch (error) {
      request.log.warn({ err: loggableError(error) }, 'database not reachable');
      return reply.status(503).send({ status: 'unavailable', reason: 'database' });
    }
  });
}
