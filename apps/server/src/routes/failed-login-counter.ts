import {
  type FailedLoginCounterAnswer,
  failedLoginCounterQuerySchema,
  normaliseEmail,
} from '@concierge/contracts';
import { type Kysely, prepared, sql } from '@concierge/database';
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import { LOCK_AFTER_FAILURES } from '../accounts/protection/account-row';
import type { CounterWatch } from '../accounts/protection/counter-watch';
import {
  type CounterReading,
  type CounterRow,
  counterColumnsOf,
  readingOf,
} from '../accounts/protection/failed-login-counter';
import type { ServerTables } from '../db/schema';
import { tooManyRequests } from '../http/errors';
import { parseInput } from '../http/parse-input';
import { hitStatement, type RuleCount, waitOf } from '../http/rate-limit';
import { type RateLimits, rulesOf } from '../http/rate-limit-rules';
import type { TenantRegistry } from '../tenants/tenant-registry';

interface FailedLoginCounterOptions {
  db: Kysely<ServerTables>;
  registry: TenantRegistry;
  /** The shared wait for the count of a page's attempt. */
  counterWatch: CounterWatch;
  /** The portal's origin: the only one allowed to read the answer cross-origin. */
  portalOrigin: string;
  rateLimits: RateLimits;
}

const PATH = '/user-login-failed-counter';

/**
 * spec §7: `GET {restApiBaseUrl}/user-login-failed-counter?subdomain&email` → `[{counter}]`. The
 * answer has the same shape for every e-mail, known or not, and for unknown tenants (0), so it never
 * tells whether an account exists (ARCHITECTURE §6).
 */
export async function failedLoginCounterRoute(app: FastifyInstance, options: FailedLoginCounterOptions) {
  // Under its own path, so that the CORS plugin's hook and its `OPTIONS <prefix>/*` route reach no other route.
  await app.register(counterRoute, { ...options, prefix: PATH });
}

async function counterRoute(
  app: FastifyInstance,
  { db, registry, counterWatch, portalOrigin, rateLimits }: FailedLoginCounterOptions,
) {
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
    // The rate limits' hit and the count in one statement: the login page asks before every sign-in.
    const rules = rulesOf(rateLimits.failedLoginCounter, { address: request.ip, email });
    const hitAt = Date.now();
    const statement = sql<CounterRow & { hits: RuleCount[] }>`with hits as (${hitStatement(rules, hitAt)})
      select (select coalesce(json_agg(counted), '[]') from hits as counted) as hits,
        ${counterColumnsOf(email)}`;
    const [row] = (await db.executeQuery(prepared(statement.compile(db)))).rows;
    const wait = waitOf(rules, row!.hits, hitAt);
    if (wait !== undefined) throw tooManyRequests(wait, 'Too many requests. Try again later.');
    const tenant = registry.bySubdomain(query.subdomain);
    if (!tenant) return [{ counter: 0 }];
    const first = readingOf(row!);
    const reading = await counterWatch.wait(
      email,
      first,
      (now) => isSettled(now, query.after),
      EVENT_WAIT_MS,
    );
    return [{ counter: reading.counter }];
  });
}

// cidaas does not hold its redirect until its webhook is delivered: the event of the attempt the
// page just made may come a few seconds after the page asks.
const EVENT_WAIT_MS = 5000;

/**
 * Whether the count reflects the page's attempt: it has moved past `after` (the count the page read
 * before it sent the form). "Locked" waits until the provider has the lock: the third failure's
 * webhook asks for it and then sets it (accounts/protection/), and a page that said "locked" in
 * between let the right password sign in on the next try (seen on a busy machine).
 */
function isSettled(reading: CounterReading, after: number | undefined): boolean {
  if (after === undefined) return true;
  if (reading.counter < LOCK_AFTER_FAILURES) return reading.counter > after;
  return !reading.isLockPending;
}
