import {
  type FailedLoginCounterAnswer,
  failedLoginCounterQuerySchema,
  normaliseEmail,
} from '@concierge/contracts';
import type { Kysely } from '@concierge/database';
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import { isLockPending } from '../accounts/account-locks';
import { LOCKED_COUNTER, readFailedLoginCounter } from '../accounts/failed-login-counters';
import type { ServerTables } from '../db/schema';
import { AppError } from '../http/errors';
import { parseInput } from '../http/parse-input';
import { consumeRateLimit } from '../http/rate-limit';
import type { TenantRegistry } from '../tenants/tenant-registry';

interface FailedLoginCounterOptions {
  db: Kysely<ServerTables>;
  registry: TenantRegistry;
  /** The portal's origin: the only one allowed to read the answer cross-origin. */
  portalOrigin: string;
}

const PATH = '/user-login-failed-counter';

// Enough for a person at a login form, too few to probe many e-mails or to hammer one.
const PER_IP = { limit: 60, windowSeconds: 60 };
const PER_EMAIL = { limit: 20, windowSeconds: 60 };

/**
 * spec §7: `GET {restApiBaseUrl}/user-login-failed-counter?subdomain&email` → `[{counter}]`. The
 * answer has the same shape for every e-mail, known or not, and for unknown tenants (0), so it never
 * tells whether an account exists (ARCHITECTURE §6).
 */
export async function failedLoginCounterRoute(app: FastifyInstance, options: FailedLoginCounterOptions) {
  // Under its own path, so that the CORS plugin's hook and its `OPTIONS <prefix>/*` route reach no other route.
  await app.register(counterRoute, { ...options, prefix: PATH });
}

async function counterRoute(app: FastifyInstance, { db, registry, portalOrigin }: FailedLoginCounterOptions) {
  // restApiBaseUrl may be another origin than the portal's: then the portal reads it through CORS.
  // The hook names the portal (and only the portal) on every answer, the route's refusals included,
  // with `Vary: Origin`, and answers the preflight itself — after the unsafe-text guard
  // (preValidation), like every other request.
  await app.register(cors, {
    hook: 'preHandler',
    origin: [portalOrigin],
    methods: ['GET'],
    allowedHeaders: ['accept'],
    maxAge: 600,
    // Any OPTIONS is answered like a preflight, as browsers never send a malformed one.
    strictPreflight: false,
  });
  // The preflight of the path itself (the plugin's own route covers only the paths below it).
  app.options('', async (_request, reply) => reply.status(204).send());

  app.get('', async (request, reply): Promise<FailedLoginCounterAnswer> => {
    reply.header('cache-control', 'no-store');
    const query = parseInput(failedLoginCounterQuerySchema, request.query);
    const email = normaliseEmail(query.email);
    const isWithinLimits =
      (await consumeRateLimit(db, { key: `counter:ip:${request.ip}`, ...PER_IP })) &&
      (await consumeRateLimit(db, { key: `counter:email:${email}`, ...PER_EMAIL }));
    if (!isWithinLimits) throw new AppError(429, 'too_many_requests', 'Too many requests. Try again later.');
    const tenant = registry.bySubdomain(query.subdomain);
    if (!tenant) return [{ counter: 0 }];
    return [{ counter: await counterAfter(db, { tenant: tenant.subdomain, email, after: query.after }) }];
  });
}

// cidaas does not hold its redirect until its webhook is delivered: the event of the attempt the
// page just made may come a few seconds after the page asks.
const EVENT_WAIT_MS = 5000;
const EVENT_POLL_MS = 200;

/**
 * The counter after the page's attempt: once it has moved past `after`, or as it is after the wait.
 * "Locked" waits too, until the provider has the lock: the third failure's webhook counts it and
 * then sets the lock (cidaas-webhook/provider-events.ts), and a page that said "locked" in between
 * let the right password sign in on the next try (seen on a busy machine).
 */
async function counterAfter(
  db: Kysely<ServerTables>,
  query: { tenant: string; email: string; after: number | undefined },
): Promise<number> {
  const deadline = Date.now() + EVENT_WAIT_MS;
  let counter = await readFailedLoginCounter(db, query.tenant, query.email);
  const isWaiting = async () => {
    if (query.after === undefined || Date.now() >= deadline) return false;
    if (counter < LOCKED_COUNTER) return counter <= query.after;
    return isLockPending(db, query.email);
  };
  while (await isWaiting()) {
    await new Promise((resolve) => setTimeout(resolve, EVENT_POLL_MS));
    counter = await readFailedLoginCounter(db, query.tenant, query.email);
  }
  return counter;
}
