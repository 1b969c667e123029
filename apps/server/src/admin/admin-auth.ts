import { createHash, timingSafeEqual } from 'node:crypto';
import { failure } from '@concierge/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * `Authorization: Bearer <ADMIN_API_TOKEN>`. Both sides are hashed first, so the comparison takes
 * the same time whatever the token's length, and it is constant-time over the digests.
 */
export function requireAdminToken(token: string) {
  const expected = digest(token);
  return async function checkAdminToken(request: FastifyRequest, reply: FastifyReply) {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(request.headers.authorization ?? '');
    const isValid = match !== null && timingSafeEqual(digest(match[1]!), expected);
    if (!isValid) {
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer realm="concierge-admin"')
        .send(
          failure(401, 'unauthorized', 'A valid admin API token is required: Authorization: Bearer <token>.'),
        );
    }
  };
}
