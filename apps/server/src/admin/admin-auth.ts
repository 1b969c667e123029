import { createHash } from 'node:crypto';
import { failure } from '@concierge/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { matchingSecret } from '../http/api-key';
import { AppError } from '../http/errors';
import type { ServerMetrics } from '../observability/metrics';

/** Who made an admin call, as the audit log records it, and for which tenants they may act. */
export interface AdminActor {
  /** Which token (tokenFingerprint): tells the old from the new one during a rotation; null for a console user. */
  tokenFingerprint: string | null;
  /** The console user (console/console-sessions.ts); null for a call with the admin token. */
  user: { sub: string; email: string } | null;
  /** Every tenant (the admin token, an operator), or a property manager's own. */
  tenants: 'all' | readonly string[];
  /** The call's X-Request-Id, the reqId of its log line. */
  requestId: string;
}

/** Whether the actor may see and change this tenant's codes, invitations and brand. */
export function mayActFor(actor: Pick<AdminActor, 'tenants'>, tenant: string): boolean {
  return actor.tenants === 'all' || actor.tenants.includes(tenant);
}

/**
 * Refuses a call about another tenant's things with 403, before anything is read out or changed.
 * The same answer whether the thing exists or not would hide more, but the tenant is named by the
 * caller (or read from a thing whose id is a random UUID), so a 403 tells them nothing new.
 */
export function requireTenant(actor: Pick<AdminActor, 'tenants'>, tenant: string): void {
  if (!mayActFor(actor, tenant)) {
    throw new AppError(403, 'forbidden_tenant', 'This tenant is not one you may manage.');
  }
}

/**
 * The first 8 hex characters of the token's SHA-256: enough to tell an operator's tokens apart, of no
 * use for guessing one (the server refuses tokens of fewer than 16 characters outside development).
 * An operator computes it with `printf %s "$TOKEN" | sha256sum | cut -c1-8`.
 */
export function tokenFingerprint(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex').slice(0, 8);
}

/**
 * `Authorization: Bearer <token>`, any of ADMIN_API_TOKEN's values (two while it is rotated),
 * compared in constant time (http/api-key.ts); or, without that header, a console user's session
 * (`consoleActor`, which checks the session's form token on a change). A refusal is answered 401,
 * logged at warn without the token, and counted (`concierge_auth_refusals_total{surface="admin"}`);
 * an accepted call's actor is known to the routes through actorOf.
 */
export function adminAuthentication(
  tokens: readonly string[],
  metrics: Pick<ServerMetrics, 'authRefusals'>,
  consoleActor?: (request: FastifyRequest) => Promise<AdminActor | null>,
) {
  const fingerprints = tokens.map(tokenFingerprint);
  const actors = new WeakMap<FastifyRequest, AdminActor>();
  return {
    async check(request: FastifyRequest, reply: FastifyReply) {
      const header = request.headers.authorization;
      const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
      const index = matchingSecret(match?.[1], tokens);
      const user = index === -1 && header === undefined && consoleActor ? await consoleActor(request) : null;
      if (user) {
        actors.set(request, user);
        return;
      }
      if (index === -1) {
        metrics.authRefusals.inc({ surface: 'admin' });
        request.log.warn(
          { surface: 'admin', tokenPresented: header !== undefined },
          'admin API refused: missing or wrong token',
        );
        return reply
          .status(401)
          .header('www-authenticate', 'Bearer realm="concierge-admin"')
          .send(
            failure(
              401,
              'unauthorized',
              'A valid admin API token is required: Authorization: Bearer <token>.',
            ),
          );
      }
      actors.set(request, {
        tokenFingerprint: fingerprints[index]!,
        user: null,
        tenants: 'all',
        requestId: request.id,
      });
    },

    /** The actor of a call that passed check; routes are reached only through it. */
    actorOf(request: FastifyRequest): AdminActor {
      const actor = actors.get(request);
      if (!actor) throw new Error('an admin route was reached without the token check');
      return actor;
    },
  };
}
