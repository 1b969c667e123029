import { createHash, randomBytes } from 'node:crypto';
import { ok } from '@concierge/contracts';
import cors from '@fastify/cors';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { z } from 'zod';
import { CIDAAS_ROUTES, INTERACTION_TTL_SECONDS } from '../oidc/configuration';
import { RequestCookies } from '../oidc/request-cookies';
import { CIDAAS_CODES } from './cidaas-codes';
import type { RouteDeps } from './deps';
import { refuse, sendValidationFailure } from './envelope-errors';
import { portalCorsOptions } from './portal-cors';

export const AUTHZ_REQUEST_PREFIX = '/authz-srv/authrequest';

// Unknown fields are dropped: cidaas's generate takes more (ui_locales, …) and callers may send them.
const generateBodySchema = z.object({
  client_id: z.string().min(1).max(200),
  redirect_uri: z.string().min(1).max(2000),
  response_type: z.string().min(1).max(100).default('code'),
  scope: z.string().min(1).max(1000).default('openid email profile mobile'),
  nonce: z.string().min(1).max(500).optional(),
});

// The browser's headers that shape how oidc-provider treats the request: cookies tie it to the browser's
// session, host and the proxy headers make the resume URL the one the browser can reach. A call from
// the portal's server has no browser behind it: the issuer's host stands in for the browser's.
const FORWARDED_HEADERS = [
  'host',
  'cookie',
  'user-agent',
  'accept-language',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
];

/** A refused request; the OAuth error name (invalid_client, …) leads the message. */
function badRequest(reply: FastifyReply, oauthError: string, message: string) {
  return refuse(
    reply,
    400,
    CIDAAS_CODES.MALFORMED_REQUEST,
    `${oauthError}: ${message}`,
    'AuthzRequestException',
  );
}

/**
 * `POST /authz-srv/authrequest/authz/generate` (provider-protocol.md): a fresh requestId for a page
 * opened without one. The portal's server asks for it while it renders the page. It runs a real
 * authorization request through oidc-provider; the cookies oidc-provider answers with are kept with
 * the request (oidc/request-cookies.ts), so the login form POST of any browser finishes it — as with
 * cidaas, the request id alone — and leaves a session in that browser. PKCE is required, so a throw-away S256 challenge is made up: the code at the end
 * is redeemable by nobody, and `state` is random. The relying party, finding an unknown state on its
 * callback, starts a normal sign-in, which the new session completes at once. prompt=login makes
 * sure there is an interaction (and so a requestId) even when the browser is signed in already.
 */
export const authzGenerateRoutes: FastifyPluginAsync<RouteDeps> = async (app, { config, clients, db }) => {
  await app.register(cors, portalCorsOptions(config.portalUrl));
  app.removeContentTypeParser('text/plain');
  const allowedOrigins = new Set([new URL(config.portalUrl).origin, config.issuer]);
  const requestCookies = new RequestCookies(db);

  app.post('/authz/generate', async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    // Browsers send Origin on every cross-origin POST; the server's own calls send none.
    const origin = request.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin)) {
      return refuse(reply, 403, 403, 'origin not allowed', 'AuthzRequestException');
    }
    const body = generateBodySchema.safeParse(request.body);
    if (!body.success) return sendValidationFailure(reply, body.error);
    const { client_id: clientId, redirect_uri: redirectUri, response_type, scope, nonce } = body.data;
    const client = clients.get(clientId);
    if (!client?.grant_types.includes('authorization_code')) {
      return badRequest(reply, 'invalid_client', 'unknown client_id or not allowed to sign users in');
    }
    if (!client.redirect_uris.includes(redirectUri)) {
      return badRequest(reply, 'invalid_redirect_uri', 'redirect_uri is not registered for this client');
    }
    if (response_type !== 'code') {
      return badRequest(reply, 'unsupported_response_type', 'only response_type=code is supported');
    }

    const authorization = new URLSearchParams({
      client_id: clientId,
      redirect_uri: redirectUri,
      response_type,
      scope,
      state: randomBytes(16).toString('base64url'),
      code_challenge: createHash('sha256').update(randomBytes(32)).digest('base64url'),
      code_challenge_method: 'S256',
      prompt: 'login',
      ...(nonce ? { nonce } : {}),
    });
    const headers: Record<string, string> = {};
    for (const name of FORWARDED_HEADERS) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    if (headers.cookie === undefined) headers.host = new URL(config.issuer).host;
    const answer = await app.inject({
      method: 'GET',
      url: `${CIDAAS_ROUTES.authorization}?${authorization}`,
      headers,
    });

    const location = answer.headers.location;
    const target = typeof location === 'string' ? URL.parse(location, config.issuer) : null;
    const requestId = target?.searchParams.get('requestId');
    if (answer.statusCode !== 303 || !requestId) {
      // oidc-provider refused the request (e.g. a scope without openid): its error, as an envelope.
      const error = target?.searchParams.get('error') ?? 'invalid_request';
      const description = target?.searchParams.get('error_description') ?? 'the authorization request failed';
      return badRequest(reply, error, description);
    }
    const setCookie = [answer.headers['set-cookie'] ?? []].flat();
    await requestCookies.keep(requestId, setCookie, INTERACTION_TTL_SECONDS);
    if (setCookie.length > 0) reply.header('set-cookie', setCookie);
    // cidaas's answer (recorded); the hosted page parameters are the ones /authz-srv/authz sends too.
    return ok({ groupname: 'default', lang: '', view_type: 'login', requestId });
  });
};
