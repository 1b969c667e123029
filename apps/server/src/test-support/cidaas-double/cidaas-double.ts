import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { accountRoutes } from './account-routes';
import { tokenRoute } from './admin-auth';
import { malformed, noSuchCall, refuse } from './envelope';
import { hostedRoutes } from './hosted-routes';
import { loginRoute } from './login-route';
import { registerRoute } from './register-route';
import { RequestIdStore } from './requests';
import { ResetLinks } from './reset-links';
import { resetRoutes } from './reset-routes';
import {
  type CidaasDouble,
  type CidaasDoubleOptions,
  type CidaasDoubleVariants,
  DEFAULT_VARIANTS,
  type DoubleContext,
  type RecordedRequest,
} from './types';
import { userRoutes } from './user-routes';
import { UserStore } from './users';
import { WebhookSender } from './webhooks';

export type * from './types';

/** Every request, recorded before it is answered: a test may look as soon as its fetch resolves. */
function recordRequests(app: FastifyInstance, requests: RecordedRequest[]): void {
  const entries = new WeakMap<object, RecordedRequest>();
  app.addHook('onRequest', async (request) => {
    const url = new URL(request.url, 'http://double.invalid');
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    const entry = {
      method: request.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      body: undefined,
    };
    requests.push(entry);
    entries.set(request, entry);
  });
  app.addHook('preValidation', async (request) => {
    const entry = entries.get(request);
    if (entry) entry.body = request.body;
  });
}

/**
 * Malformed input of any kind is 400 + 10000 in the envelope, never a 5xx; unknown calls are 404
 * (both ours: what cidaas answers them is unknown beyond a 4xx).
 */
function answerErrorsAsCidaas(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  app.setErrorHandler((error: { statusCode?: number; message?: string }, _request, reply) => {
    const status = error.statusCode ?? 500;
    if (status < 500) return malformed(reply, error.message ?? 'malformed request');
    console.error('cidaas double: unexpected error', error);
    return refuse(reply, 500, 500, 'unexpected error in the cidaas double', 'InternalException');
  });
  app.setNotFoundHandler((_request, reply) => noSuchCall(reply));
}

/**
 * Starts the recorded-cidaas double on 127.0.0.1 (a port of the OS's choosing): the calls of
 * provider-protocol.md's "Hosted-page sign-in", "Admin API" and "Webhooks", answered as cidaas is
 * recorded or documented to answer and, where that is unknown, as `variants` choose. It is a
 * witness, not a mirror of the client: every answer names its source beside it (types.ts lists
 * the kinds), and a path cidaas has in no source is no call here (404).
 */
export async function startCidaasDouble(options: CidaasDoubleOptions): Promise<CidaasDouble> {
  if (options.clients.length === 0) throw new Error('cidaas double: at least one client is needed');
  let variants: CidaasDoubleVariants = { ...DEFAULT_VARIANTS, ...options.variants };
  const requests: RecordedRequest[] = [];
  const tenant = options.tenant ?? { name: 'Recorded cidaas double', key: 'double' };
  const ctx: DoubleContext = {
    options,
    tenant,
    variants: () => variants,
    users: new UserStore(),
    requestIds: new RequestIdStore(),
    resets: new ResetLinks(),
    webhooks: new WebhookSender(() => variants, tenant.key),
    tokens: new Set(),
  };

  const app = Fastify({ logger: false });
  recordRequests(app, requests);
  answerErrorsAsCidaas(app);
  tokenRoute(app, ctx);
  hostedRoutes(app, ctx);
  loginRoute(app, ctx);
  userRoutes(app, ctx);
  accountRoutes(app, ctx);
  registerRoute(app, ctx);
  resetRoutes(app, ctx);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    get variants() {
      return variants;
    },
    set variants(next) {
      variants = next;
    },
    addUser: (user) => ({ sub: ctx.users.add(user).sub }),
    user: (email) => {
      const user = ctx.users.byEmail(email);
      return user && { ...user };
    },
    lastReset: (email) => {
      const user = ctx.users.byEmail(email);
      const link = user && ctx.resets.latestFor(user.sub);
      return link && { rprq: link.rprq, exchangeId: link.exchangeId, requestId: link.requestId };
    },
    expireRequestIds: () => ctx.requestIds.expireAll(),
    revokeTokens: () => ctx.tokens.clear(),
    requests,
    webhooksSettled: () => ctx.webhooks.settled(),
    holdWebhooks: () => ctx.webhooks.hold(),
    setWebhook: (target) => ctx.webhooks.setTarget(target),
    close: async () => {
      await ctx.webhooks.settled();
      await app.close();
    },
  };
}
