import { ok, PORTAL_API_PREFIX, type PortalCallName } from '@concierge/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { portalRequestGuard } from '../http/portal-request-guard';

/**
 * One call of spec §7: reads its body (unknown input, checked inside), does the work and gives the
 * answer's data, or throws an AppError with a §8 code. The same function answers the page's JSON
 * call and the form the page posts without JavaScript (routes/portal-forms.ts).
 */
export type PortalCall = (request: FastifyRequest, body: unknown) => Promise<unknown>;

export type PortalCalls = Record<PortalCallName, PortalCall>;

/** spec §7: POST /api/cidaas-webhook/{name}, JSON in and out, only from the portal's own pages. */
export async function portalCallRoutes(
  app: FastifyInstance,
  { calls, portalOrigin }: { calls: PortalCalls; portalOrigin: string },
) {
  const onRequest = portalRequestGuard(portalOrigin);
  for (const [name, call] of Object.entries(calls)) {
    app.post(`${PORTAL_API_PREFIX}/${name}`, { onRequest }, async (request) =>
      ok(await call(request, request.body)),
    );
  }
}
