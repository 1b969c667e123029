import { failure } from '@concierge/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * ARCHITECTURE §6 for the portal's state-changing calls, checked before the body is read: a browser
 * that names an Origin must be on the portal's own one (another site's page may not post here), and
 * the body must be JSON — which a cross-site form cannot send without CORS allowing it.
 */
export function portalRequestGuard(portalOrigin: string) {
  return async function guardPortalRequest(request: FastifyRequest, reply: FastifyReply) {
    const { origin } = request.headers;
    if (origin !== undefined && origin !== portalOrigin) {
      return reply.status(403).send(failure(403, 'forbidden_origin', 'This call is only for the portal.'));
    }
    if (mediaType(request.headers['content-type']) !== 'application/json') {
      return reply
        .status(415)
        .send(failure(415, 'unsupported_media_type', 'The body must be application/json.'));
    }
  };
}

function mediaType(contentType: string | undefined): string | undefined {
  return contentType?.split(';', 1)[0]?.trim().toLowerCase();
}
