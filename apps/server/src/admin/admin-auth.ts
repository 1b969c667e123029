import { failure } from '@concierge/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isSameSecret } from '../http/api-key';

/** `Authorization: Bearer <ADMIN_API_TOKEN>`, compared in constant time (http/api-key.ts). */
export function requireAdminToken(token: string) {
  return async function checkAdminToken(request: FastifyRequest, reply: FastifyReply) {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(request.headers.authorization ?? '');
    const isValid = match !== null && isSameSecret(match[1], token);
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
