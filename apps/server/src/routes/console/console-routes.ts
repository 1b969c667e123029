import { CONSOLE_ASSETS_PATH, CONSOLE_PATH, describeUnsafeRequestPart } from '@concierge/contracts';
import fastifyFormbody from '@fastify/formbody';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../http/errors';
import type { ConsoleSignIn } from '../../provider-client/console-sign-in';
import { consoleBrandRoutes } from './console-brand-routes';
import { type ConsoleDeps, hasFormToken, hasVisit, sendPage, sessionHook, visitOf } from './console-context';
import { type Fields, readUpload, unsafeFieldOf } from './console-fields';
import { consoleFormRoutes } from './console-form-routes';
import { consolePageRoutes } from './console-page-routes';
import { consoleSignInRoutes } from './console-sign-in-routes';

/** A units file or a logo: far more than 2,000 units or a logo needs, far less than would hurt. */
const UPLOAD_LIMIT = 1024 * 1024;
/**
 * A text field: longer than any valid typed list (2,000 units of 40 characters with names of 200,
 * four bytes each at most: 1.93 MB). busboy cuts a longer value off without a word, so a cut list
 * cannot pass as whole: what it keeps is too long or too many units and is refused. Only a signed-in
 * user's posts are read (the sign-in check comes before the body).
 */
const FIELD_LIMIT = 2 * 1024 * 1024;

/** The paths a signed-out visitor may reach: signing in, and the assets its page loads. */
const OPEN_PATHS = new Set(['/console/sign-in', '/console/callback', '/console/signed-out']);

export interface ConsoleRouteOptions extends ConsoleDeps {
  signIn: ConsoleSignIn;
}

/**
 * The console (issue 30) below CONSOLE_PATH: the office's and the operator's pages, their forms and
 * the sign-in. Its own plugin scope: the form parsers, the session and the error pages here are the
 * console's alone, and no tenant page links anything below it.
 */
export async function consoleRoutes(app: FastifyInstance, options: ConsoleRouteOptions) {
  const { signIn, ...deps } = options;
  await app.register(fastifyFormbody, { bodyLimit: UPLOAD_LIMIT });
  await app.register(fastifyMultipart, {
    attachFieldsToBody: 'keyValues',
    onFile: readUpload,
    limits: { fileSize: UPLOAD_LIMIT, files: 2, fields: 30, fieldSize: FIELD_LIMIT, parts: 32 },
    throwFileSizeLimit: true,
  });
  await app.register(fastifyStatic, {
    root: deps.build.assetsDir,
    prefix: `${CONSOLE_ASSETS_PATH}/`,
    immutable: true,
    maxAge: '365d',
    index: false,
  });

  const resume = sessionHook(deps);
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith(`${CONSOLE_ASSETS_PATH}/`)) return;
    await resume(request);
    // A post without a session is refused before its body (maybe an upload) is read.
    const path = request.url.split('?')[0]!;
    if (request.method === 'POST' && !visitOf(request).session && !OPEN_PATHS.has(path)) {
      return sendPage(deps, request, reply, { page: 'sign-in', reason: null }, 401);
    }
  });
  // After the server's own guards (unsafe text is a 400 before anything: http/safe-text-guard.ts),
  // a signed-out visitor meets the sign-in page wherever they ask.
  app.addHook('preValidation', async (request, reply) => {
    if (request.url.startsWith(`${CONSOLE_ASSETS_PATH}/`)) return;
    const path = request.url.split('?')[0]!;
    const { session, expired } = visitOf(request);
    if (session || OPEN_PATHS.has(path)) return;
    const reason = expired ? 'expired' : null;
    // The console's start page is the sign-in page when signed out; any other page asks for it.
    return sendPage(deps, request, reply, { page: 'sign-in', reason }, path === CONSOLE_PATH ? 200 : 401);
  });

  // Every post carries the session's form token (SameSite=Lax already keeps the cookie off another
  // site's posts; the token holds where a browser does not): none is handled without it.
  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST') return;
    const fields = (request.body ?? {}) as Fields;
    // A multipart body is parsed after the server's unsafe-text guard has run: checked here.
    const unsafe = unsafeFieldOf(fields);
    if (unsafe) throw new AppError(400, 'invalid_request', describeUnsafeRequestPart(`body.${unsafe}`));
    if (!hasFormToken(request, fields)) {
      request.log.warn('console form refused: no or wrong form token');
      return sendPage(deps, request, reply, { page: 'forbidden' }, 403);
    }
  });

  // A page about something the user may not see, or that does not exist, is a console page too.
  app.setErrorHandler(async (error, request, reply) => {
    // An error before the session was looked at (an asset, a guard of the server's) is the server's to answer.
    if (!(error instanceof AppError) || !hasVisit(request)) throw error;
    if (visitOf(request).session && request.method === 'GET') {
      if (error.status === 403) return sendPage(deps, request, reply, { page: 'forbidden' }, 403);
      if (error.status === 404 || error.status === 400) {
        return sendPage(deps, request, reply, { page: 'not-found' }, 404);
      }
    }
    if (error.status === 403) return sendPage(deps, request, reply, { page: 'forbidden' }, 403);
    throw error;
  });

  consoleSignInRoutes(app, deps, signIn);
  consolePageRoutes(app, deps);
  consoleFormRoutes(app, deps);
  consoleBrandRoutes(app, deps);
}
