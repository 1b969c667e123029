import { sql } from '@concierge/database';
import type { FastifyPluginAsync } from 'fastify';
import type { RouteDeps } from './deps';

export const healthRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db }) => {
  // Ready means the database answers: without it neither login nor tokens work.
  app.get('/healthz', async (_request, reply) => {
    try {
      await sql`select 1`.execute(db);
      return { status: 'ok' };
    } catch {
      return reply.code(503).send({ status: 'unavailable' });
    }
  });
};
