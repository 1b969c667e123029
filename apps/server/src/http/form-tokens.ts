import { FORM_TOKEN_FIELD } from '@concierge/contracts';
import fastifyCookie from '@fastify/cookie';
import fastifyCsrfProtection from '@fastify/csrf-protection';
import type { FastifyInstance } from 'fastify';

/**
 * The forms' defence against other sites (issue 25): a signed double-submit token. Each visitor
 * gets a random secret in a cookie signed with FORM_SECRET (so it holds on every instance and
 * nobody can plant one of their own), every form page carries a token made from that secret, and a
 * posted form counts only when its token matches the cookie it came with. The cookie is SameSite=Lax
 * too, so a browser does not even send it with another site's post; `__Host-` on https keeps a
 * sibling host from setting it. The JSON calls need none of this: another site cannot send JSON
 * without CORS allowing it (http/portal-request-guard.ts).
 */
export async function installFormTokens(
  app: FastifyInstance,
  { secrets, isHttps }: { secrets: string[]; isHttps: boolean },
) {
  await app.register(fastifyCookie, { secret: secrets });
  await app.register(fastifyCsrfProtection, {
    cookieKey: isHttps ? '__Host-concierge-form' : 'concierge-form',
    // A refused form is answered and noted in the request's log line (routes/portal-forms.ts).
    logLevel: 'debug',
    cookieOpts: { path: '/', sameSite: 'lax', httpOnly: true, secure: isHttps, signed: true },
    // Only from the form: a header would be the JSON calls' business, and they have their own guard.
    getToken: (request) => {
      const token = (request.body as Record<string, unknown> | undefined)?.[FORM_TOKEN_FIELD];
      return typeof token === 'string' ? token : undefined;
    },
  });
}

/** What @fastify/csrf-protection throws for a missing cookie or a token that does not match it. */
export function isFormTokenRefusal(error: { code?: unknown }): boolean {
  return error.code === 'FST_CSRF_MISSING_SECRET' || error.code === 'FST_CSRF_INVALID_TOKEN';
}
