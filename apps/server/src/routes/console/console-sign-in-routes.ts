import { isLanguage } from '@concierge/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { consoleAccessOf } from '../../console/console-roles';
import {
  endSession,
  openSession,
  rememberSignIn,
  SIGN_IN_LIFETIME_MS,
  takeSignIn,
} from '../../console/console-sessions';
import { enforceRateLimits } from '../../http/rate-limit';
import { rulesOf } from '../../http/rate-limit-rules';
import type { ConsoleSignIn } from '../../provider-client/console-sign-in';
import { type ConsoleDeps, sendPage, sessionCookieName, visitOf } from './console-context';

/**
 * Signing in to the console through the provider and out again. The provider's return is matched to
 * the sign-in it answers (state, nonce, PKCE verifier, kept server-side and used once); the user's
 * roles are read from their profile with the server's own credentials; a session is made only for a
 * user the console opens to (console/console-roles.ts). The session's cookie is HttpOnly, SameSite=Lax
 * (the return from the provider is a top-level navigation from another site) and, over HTTPS,
 * `__Host-` and Secure; every post also needs the session's form token.
 */
export function consoleSignInRoutes(app: FastifyInstance, deps: ConsoleDeps, signIn: ConsoleSignIn) {
  const cookieName = sessionCookieName(deps.config);
  const secure = deps.config.portalUrl.startsWith('https:');
  // The starting browser's mark (console-sessions.ts, rememberSignIn): sent to the callback alone.
  const startedCookie = {
    name: 'concierge-console-sign-in',
    options: { path: '/console/callback', httpOnly: true, sameSite: 'lax', secure } as const,
  };

  app.get('/console/sign-in', async (request, reply) => {
    const { language } = visitOf(request);
    await enforceRateLimits(deps.db, rulesOf(deps.config.rateLimits.consoleSignIn, { address: request.ip }));
    let started: Awaited<ReturnType<ConsoleSignIn['start']>>;
    try {
      started = await signIn.start(language);
    } catch (error) {
      request.log.warn({ err: error }, 'console sign-in: the provider could not be asked');
      return sendPage(deps, request, reply, { page: 'sign-in', reason: 'failed' }, 503);
    }
    const browser = await rememberSignIn(deps.db, { ...started, language });
    return reply
      .header('cache-control', 'no-store')
      .setCookie(startedCookie.name, browser, {
        ...startedCookie.options,
        maxAge: SIGN_IN_LIFETIME_MS / 1000,
      })
      .redirect(started.url, 302);
  });

  app.get('/console/callback', async (request, reply) => {
    const failed = (status: number, why: string, error?: unknown) => {
      request.log.warn({ err: error, why }, 'console sign-in refused');
      return sendPage(deps, request, reply, { page: 'sign-in', reason: 'failed' }, status);
    };
    const query = request.query as Record<string, unknown>;
    const state = typeof query.state === 'string' ? query.state : undefined;
    const browser = request.cookies[startedCookie.name];
    reply.clearCookie(startedCookie.name, startedCookie.options);
    const started = state ? await takeSignIn(deps.db, state, browser) : null;
    if (!started || !state) {
      return failed(400, 'no sign-in this browser started is waiting for this return');
    }
    let identity: Awaited<ReturnType<ConsoleSignIn['finish']>>;
    try {
      identity = await signIn.finish(callbackUrl(deps, request), { state, ...started });
    } catch (error) {
      return failed(400, 'the provider did not sign the user in', error);
    }
    const profile = await deps.provider.findUserBySub(identity.sub);
    if (profile.kind !== 'answer' || !profile.data) {
      return failed(503, 'the user profile could not be read at the provider');
    }
    const known = new Set(deps.registry.tenants.map((entry) => entry.subdomain));
    const access = consoleAccessOf(profile.data, deps.config.console!, known);
    const email = identity.email ?? profile.data.email;
    if (!access || !email) {
      request.log.info({ sub: identity.sub }, 'console sign-in: the user has no console role');
      return sendPage(deps, request, reply, { page: 'sign-in', reason: 'no_role' }, 403);
    }
    const cookie = await openSession(deps.db, {
      sub: identity.sub,
      email,
      name: identity.name,
      idToken: identity.idToken,
      access,
      language: isLanguage(started.language) ? started.language : visitOf(request).language,
    });
    request.log.info({ sub: identity.sub, role: access.role }, 'console sign-in');
    return reply
      .setCookie(cookieName, cookie, { path: '/', httpOnly: true, sameSite: 'lax', secure })
      .redirect('/console', 303);
  });

  app.post('/console/sign-out', async (request, reply) => {
    // The form token was checked before (console-routes.ts): a session and its cookie are there.
    const idToken = await endSession(deps.db, request.cookies[cookieName]!);
    return reply
      .clearCookie(cookieName, { path: '/', httpOnly: true, sameSite: 'lax', secure })
      .redirect(await signIn.endSessionUrl(idToken), 303);
  });

  // Where the provider's sign-out returns to.
  app.get('/console/signed-out', (request, reply) =>
    sendPage(deps, request, reply, { page: 'sign-in', reason: 'signed_out' }),
  );
}

/** The return as the provider sent it, on the origin the redirect URI names (behind a proxy too). */
function callbackUrl(deps: ConsoleDeps, request: FastifyRequest): URL {
  return new URL(request.url, deps.config.portalUrl);
}
