import { ok, PORTAL_API_PREFIX, type PortalCallAnswer, type PortalCallName } from '@concierge/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { portalRequestGuard } from '../http/portal-request-guard';

/**
 * One call of spec §7 (contracts' PORTAL_CALLS): reads its body (unknown input, checked inside),
 * does the work and gives the answer's data as the portal reads it, or throws a `callError` with one
 * of the call's codes. The same function answers the page's JSON call and the form the page posts
 * without JavaScript (routes/portal-forms.ts).
 */
export type PortalCall<N extends PortalCallName = PortalCallName> = (
  request: FastifyRequest,
  body: unknown,
) => Promise<PortalCallAnswer<N>>;

/** Every call of PORTAL_CALLS, each its own: one missing fails the typecheck. */
export type PortalCalls = { [N in PortalCallName]: PortalCall<N> };

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
