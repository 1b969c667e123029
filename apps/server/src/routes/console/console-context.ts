import {
  CONSOLE_CSRF_FIELD,
  CONSOLE_PATH,
  type ConsoleFlash,
  type ConsolePage,
  type ConsoleTenant,
  isLanguage,
  type Language,
  pickLanguage,
} from '@concierge/contracts';
import type { Kysely } from '@concierge/database';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AdminActor } from '../../admin/admin-auth';
import type { ServerConfig } from '../../config';
import type { ConsoleBuild } from '../../console/console-document';
import {
  type ConsoleSession,
  resumeSession,
  type SessionLifetime,
  setFlash,
  setSessionLanguage,
  takeFlash,
} from '../../console/console-sessions';
import type { ServerTables } from '../../db/schema';
import { matchingSecret } from '../../http/api-key';
import { AppError } from '../../http/errors';
import type { ProviderClient } from '../../provider-client/provider-client';
import type { TenantRegistry } from '../../tenants/tenant-registry';

export interface ConsoleDeps {
  db: Kysely<ServerTables>;
  provider: ProviderClient;
  registry: TenantRegistry;
  config: ServerConfig;
  build: ConsoleBuild;
  lifetime: SessionLifetime;
}

/** The cookie of a console session: host-only and HTTPS-only where the portal is served over HTTPS. */
export function sessionCookieName(config: Pick<ServerConfig, 'portalUrl'>): string {
  return config.portalUrl.startsWith('https:') ? '__Host-concierge-console' : 'concierge-console';
}

/** What a console request knows of its visitor: the session (null: signed out), and whether it just ended. */
export interface ConsoleVisit {
  session: ConsoleSession | null;
  expired: boolean;
  language: Language;
}

const visits = new WeakMap<FastifyRequest, ConsoleVisit>();

/**
 * Every console request first: the session its cookie names, kept alive by it, and the page's
 * language — `lang` in the query (kept in the session from then on), else the session's, else the
 * browser's.
 */
export function sessionHook(deps: ConsoleDeps) {
  return async (request: FastifyRequest) => {
    const cookie = request.cookies[sessionCookieName(deps.config)];
    const resumed = cookie ? await resumeSession(deps.db, cookie, deps.lifetime) : null;
    const session = resumed === 'expired' ? null : resumed;
    const asked = (request.query as Record<string, unknown> | undefined)?.lang;
    const chosen = typeof asked === 'string' && isLanguage(asked) ? asked : undefined;
    if (session && chosen && chosen !== session.language) {
      await setSessionLanguage(deps.db, session.idHash, chosen);
    }
    visits.set(request, {
      session,
      expired: resumed === 'expired',
      language: chosen ?? session?.language ?? pickLanguage(request.headers['accept-language']),
    });
  };
}

/** Whether the session hook has looked at this request (not for the console's assets). */
export function hasVisit(request: FastifyRequest): boolean {
  return visits.has(request);
}

export function visitOf(request: FastifyRequest): ConsoleVisit {
  const visit = visits.get(request);
  if (!visit) throw new Error('a console route was reached without the session hook');
  return visit;
}

/** The session of a request that must have one; routes call it after requireSignedIn. */
export function sessionOf(request: FastifyRequest): ConsoleSession {
  const session = visitOf(request).session;
  if (!session) throw new Error('a console page was reached without a session');
  return session;
}

/** The admin functions' actor for the signed-in user: they check each tenant against it. */
export function actorOf(request: FastifyRequest): AdminActor {
  const session = sessionOf(request);
  return {
    tokenFingerprint: null,
    user: { sub: session.sub, email: session.email },
    tenants: session.access.role === 'operator' ? 'all' : session.access.tenants,
    requestId: request.id,
  };
}

/** The header a console user's call to the admin API carries its session's form token in (a change only). */
export const CONSOLE_CSRF_HEADER = 'x-console-csrf';

/**
 * The admin API's actor for a console user's session cookie: the same tenants as in the console. A
 * call that changes something must also carry the session's form token in CONSOLE_CSRF_HEADER, which
 * another site's page cannot read; null refuses the call (401).
 */
export function consoleAdminActor(deps: Pick<ConsoleDeps, 'db' | 'config' | 'lifetime'>) {
  return async (request: FastifyRequest): Promise<AdminActor | null> => {
    const cookie = request.cookies[sessionCookieName(deps.config)];
    const session = cookie ? await resumeSession(deps.db, cookie, deps.lifetime) : null;
    if (!session || session === 'expired') return null;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const sent = request.headers[CONSOLE_CSRF_HEADER];
      if (typeof sent !== 'string' || matchingSecret(sent, [session.csrfToken]) === -1) return null;
    }
    return {
      tokenFingerprint: null,
      user: { sub: session.sub, email: session.email },
      tenants: session.access.role === 'operator' ? 'all' : session.access.tenants,
      requestId: request.id,
    };
  };
}

/** Whether a request's console session may see this tenant's brand drafts (tenants/brand-preview.ts). */
export function consolePreviewCheck(deps: Pick<ConsoleDeps, 'db' | 'config' | 'lifetime'>) {
  const actorFor = consoleAdminActor(deps);
  return async (request: FastifyRequest, tenant: string): Promise<boolean> => {
    if (request.method !== 'GET') return false;
    const actor = await actorFor(request);
    return actor !== null && (actor.tenants === 'all' || actor.tenants.includes(tenant));
  };
}

/** The tenants the user may see, in the registry's order. */
export function tenantsOf(deps: ConsoleDeps, session: ConsoleSession): ConsoleTenant[] {
  return deps.registry.tenants
    .filter((entry) => session.access.role === 'operator' || session.access.tenants.includes(entry.subdomain))
    .map((entry) => ({ subdomain: entry.subdomain, displayName: entry.displayName }));
}

/**
 * A tenant named in a console URL: one the user may manage (else 403), known to the registry
 * (else 404). Checked before anything about it is read.
 */
export function tenantOfPath(deps: ConsoleDeps, request: FastifyRequest, subdomain: string): ConsoleTenant {
  const session = sessionOf(request);
  const allowed = session.access.role === 'operator' || session.access.tenants.includes(subdomain);
  if (!allowed) throw new AppError(403, 'forbidden_tenant', 'This tenant is not one you may manage.');
  const entry = deps.registry.bySubdomain(subdomain);
  if (!entry) throw new AppError(404, 'unknown_tenant', `No tenant with the subdomain "${subdomain}".`);
  return { subdomain: entry.subdomain, displayName: entry.displayName };
}

/** Renders a console page: the signed-in user's frame around it, the flash of the last post said once. */
export async function sendPage(
  deps: ConsoleDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  view: ConsolePage,
  status = 200,
): Promise<FastifyReply> {
  const visit = visitOf(request);
  const session = visit.session;
  const flash: ConsoleFlash | null = session ? await takeFlash(deps.db, session.idHash) : null;
  const html = deps.build.document({
    language: visit.language,
    user: session ? { email: session.email, name: session.name, role: session.access.role } : null,
    tenants: session ? tenantsOf(deps, session) : [],
    csrfToken: session?.csrfToken ?? null,
    flash,
    url: request.url,
    sessionEndsAt: session?.endsAt.toISOString() ?? null,
    view,
  });
  return reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
}

/** After a post: what it did, said on the page it sends the browser to (303, so the reload does not post again). */
export async function redirectWithFlash(
  deps: ConsoleDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  to: string,
  flash: ConsoleFlash,
): Promise<FastifyReply> {
  await setFlash(deps.db, sessionOf(request).idHash, flash);
  return reply.redirect(`${CONSOLE_PATH}${to}`, 303);
}

/** The form's token against the session's, in constant time: a post from another site has neither. */
export function hasFormToken(request: FastifyRequest, body: Record<string, unknown>): boolean {
  const session = visitOf(request).session;
  const sent = body[CONSOLE_CSRF_FIELD];
  if (!session || typeof sent !== 'string') return false;
  return matchingSecret(sent, [session.csrfToken]) !== -1;
}
