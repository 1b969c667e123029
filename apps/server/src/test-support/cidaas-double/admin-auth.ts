import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { accessDenied } from './envelope';
import type { DoubleContext } from './types';

const TOKEN_LIFETIME_S = 86400;

/** `Authorization: Basic base64(id:secret)`, the parts form-url-encoded (RFC 6749 §2.3.1). */
function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const encoded = /^Basic\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
  if (!encoded) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  try {
    return {
      id: decodeURIComponent(decoded.slice(0, colon)),
      secret: decodeURIComponent(decoded.slice(colon + 1)),
    };
  } catch {
    return undefined;
  }
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * `POST /token-srv/token`, client credentials only (the path and `access_token`, `token_type`,
 * `expires_in` recorded; cidaas-facts.md "Tokens"). Its refusals are OAuth's (RFC 6749 §5.2), not
 * the envelope: what cidaas answers a wrong secret is unknown. The token carries no scopes here:
 * the double does not check cidaas's documented scopes and roles (ours).
 */
export function tokenRoute(app: FastifyInstance, ctx: DoubleContext): void {
  app.post('/token-srv/token', async (request, reply) => {
    const form = typeof request.body === 'object' && request.body !== null ? request.body : undefined;
    if (!form) return reply.code(400).send({ error: 'invalid_request', error_description: 'no form body' });
    const fields = form as Record<string, unknown>;
    if (fields.grant_type !== 'client_credentials') {
      return reply.code(400).send({ error: 'unsupported_grant_type' });
    }
    const basic = basicCredentials(request.headers.authorization);
    const clientId = basic?.id ?? text(fields.client_id);
    const secret = basic?.secret ?? text(fields.client_secret);
    const expected = ctx.options.clientCredentials;
    if (clientId !== expected.clientId || secret !== expected.clientSecret) {
      return reply.code(401).send({ error: 'invalid_client' });
    }
    const accessToken = randomUUID();
    ctx.tokens.add(accessToken);
    return { access_token: accessToken, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_S };
  });
}

/**
 * onRequest hook of every admin call: a bearer token this double issued, else the recorded 401 body
 * (envelope.ts accessDenied), before any parsing.
 */
export function requireBearer(ctx: DoubleContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (hasBearer(ctx, request)) return;
    return accessDenied(reply);
  };
}

/** Whether the request carries a bearer token this double issued (and has not revoked). */
export function hasBearer(ctx: DoubleContext, request: FastifyRequest): boolean {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
  return token !== undefined && ctx.tokens.has(token);
}
