import { type Kysely, loggableError, sql } from '@concierge/database';
import type { FastifyInstance } from 'fastify';
import type { ServerTables } from '../db/schema';
import type { Drain } from '../http/drain';

/**
 * /healthz: the process answers (liveness; also while draining, so that nothing restarts it then).
 * /readyz: it takes new traffic — not draining for a shutdown, and its database answers.
 */
export async function healthRoutes(
  app: FastifyInstance,
  options: { db: Kysely<ServerTables>; drain: Drain },
) {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (request, reply) => {
    if (options.drain.isDraining) return reply.status(503).send({ status: 'draining' });
    try {
      await sql`select 1`.execute(options.db);
      return { status: 'ready' };
    } catch (error) {
      request.log.warn({ err: loggableError(error) }, 'database not reachable');
      return reply.status(503).send({ status: 'unavailable', reason: 'database' });
    }
  });
}
