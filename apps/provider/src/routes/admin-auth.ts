import type { FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { refuse } from './envelope-errors';

/**
 * The admin API takes a bearer access token that oidc-provider issued to the admin client with
 * client_credentials. Only the client is checked, not the scopes: there is one admin client and it
 * may do everything; the cidaas scope names (config.ts ADMIN_SCOPES) are accepted so that the same
 * token request works against cidaas. Used as an onRequest hook: nobody unauthenticated gets as far
 * as body parsing.
 */
export function requireAdminToken(provider: Provider, adminClientId: string) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    const credentials = token ? await findClientCredentials(provider, token) : undefined;
    if (credentials?.clientId === adminClientId) return;
    reply.header('WWW-Authenticate', 'Bearer error="invalid_token"');
    return refuse(
      reply,
      401,
      401,
      'a valid access token of the admin client is required',
      'AuthorizationException',
    );
  };
}

async function findClientCredentials(provider: Provider, token: string) {
  try {
    return await provider.ClientCredentials.find(token);
  } catch {
    // A malformed token is just an invalid one.
    return undefined;
  }
}
