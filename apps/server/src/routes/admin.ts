import { ok } from '@concierge/contracts';
import type { Kysely } from '@concierge/database';
import type { FastifyInstance } from 'fastify';
import { unlockOnAdminRequest } from '../accounts/protection/admin-unlock';
import { adminAuthentication } from '../admin/admin-auth';
import { takeAdminQuota } from '../admin/admin-quotas';
import {
  type AdminUnlockedAccount,
  codeParamsSchema,
  createCodesBodySchema,
  createInvitationBodySchema,
  invitationParamsSchema,
  listAuditQuerySchema,
  listCodesQuerySchema,
  listInvitationsQuerySchema,
  unlockAccountBodySchema,
} from '../admin/admin-schemas';
import { listAdminChanges, recordAdminChange } from '../admin/audit-log';
import {
  createRegistrationCodes,
  listRegistrationCodes,
  revokeRegistrationCode,
  toAdminCode,
} from '../admin/codes-admin';
import { createInvitation, listInvitations, revokeInvitation } from '../admin/invitations-admin';
import type { ServerConfig } from '../config';
import type { ServerTables } from '../db/schema';
import { AppError, providerUnreachable } from '../http/errors';
import { parseInput } from '../http/parse-input';
import type { ServerMetrics } from '../observability/metrics';
import type { ProviderClient } from '../provider-client/provider-client';
import type { TenantRegistry } from '../tenants/tenant-registry';

export const ADMIN_API_PREFIX = '/api/admin';

interface AdminOptions {
  db: Kysely<ServerTables>;
  provider: ProviderClient;
  registry: TenantRegistry;
  config: Pick<ServerConfig, 'portalUrl' | 'adminQuotas'>;
  /** The accepted tokens: ADMIN_API_TOKEN's values, two while it is rotated. */
  tokens: readonly string[];
  metrics: Pick<ServerMetrics, 'authRefusals'>;
}

/**
 * The operators' admin API: registration codes, invitations, unlocking accounts and the audit log of
 * those changes. Register it with `prefix: ADMIN_API_PREFIX`; every route needs the bearer token.
 * Every change writes its audit row in its own transaction (admin/audit-log.ts). Answers use the same
 * envelope as the portal's calls.
 */
export async function adminRoutes(app: FastifyInstance, options: AdminOptions) {
  const { db, provider, registry, config } = options;
  const authentication = adminAuthentication(options.tokens, options.metrics);
  const actorOf = authentication.actorOf;
  app.addHook('onRequest', authentication.check);
  // JSON only: a cross-site form can send text/plain, never application/json without CORS.
  app.removeContentTypeParser('text/plain');

  function knownTenant(subdomain: string): string {
    if (!registry.bySubdomain(subdomain)) {
      throw new AppError(400, 'unknown_tenant', `No tenant with the subdomain "${subdomain}".`);
    }
    return subdomain;
  }

  app.post('/codes', async (request, reply) => {
    const body = parseInput(createCodesBodySchema, request.body);
    const tenant = knownTenant(body.tenant);
    await takeAdminQuota(db, config.adminQuotas, { what: 'codes', tenant, amount: body.count });
    const created = await createRegistrationCodes(db, { tenant, count: body.count }, actorOf(request));
    return reply
      .status(201)
      .send(ok({ codes: created.map((row) => toAdminCode(row, config.portalUrl)) }, 201));
  });

  app.get('/codes', async (request) => {
    const query = parseInput(listCodesQuerySchema, request.query);
    const list = await listRegistrationCodes(db, query);
    return ok({ codes: list.items.map((row) => toAdminCode(row, config.portalUrl)), total: list.total });
  });

  app.post('/codes/:code/revoke', async (request) => {
    const { code } = parseInput(codeParamsSchema, request.params);
    const revoked = await revokeRegistrationCode(db, code, actorOf(request));
    return ok({ code: toAdminCode(revoked, config.portalUrl) });
  });

  app.post('/invitations', async (request, reply) => {
    const body = parseInput(createInvitationBodySchema, request.body);
    const tenant = knownTenant(body.tenant);
    await takeAdminQuota(db, config.adminQuotas, { what: 'invitations', tenant, amount: 1 });
    const invitation = await createInvitation({ db, registry, config }, body, actorOf(request));
    return reply.status(201).send(ok({ invitation }, 201));
  });

  app.get('/invitations', async (request) => {
    const query = parseInput(listInvitationsQuerySchema, request.query);
    const list = await listInvitations({ db, config }, query);
    return ok({ invitations: list.items, total: list.total });
  });

  app.post('/invitations/:id/revoke', async (request) => {
    const { id } = parseInput(invitationParamsSchema, request.params);
    return ok({ invitation: await revokeInvitation({ db, config }, id, actorOf(request)) });
  });

  // The changes made through this API, newest first (docs/operations.md, "Audit log of the admin API").
  app.get('/audit', async (request) => {
    const query = parseInput(listAuditQuerySchema, request.query);
    return ok(await listAdminChanges(db, query));
  });

  // Through the one owner of the lock (accounts/protection/): all or nothing, idempotent.
  app.post('/accounts/unlock', async (request) => {
    const { email } = parseInput(unlockAccountBodySchema, request.body);
    const unlock = await unlockOnAdminRequest({ db, provider, log: request.log }, email, (trx, unlocked) =>
      recordAdminChange(trx, actorOf(request), {
        action: 'account.unlock',
        tenant: null,
        target: email,
        outcome: unlocked.wasLocked || unlocked.failuresCleared > 0 ? 'changed' : 'unchanged',
      }),
    );
    switch (unlock.outcome) {
      case 'unlocked': {
        const account: AdminUnlockedAccount = {
          email,
          wasLocked: unlock.wasLocked,
          failedSignInsCleared: unlock.failuresCleared,
        };
        return ok({ account });
      }
      case 'no_account':
        throw new AppError(
          404,
          'account_not_found',
          'The identity provider has no account with this e-mail.',
        );
      case 'still_locked':
        throw new AppError(
          409,
          'locked_by_provider',
          'A lock Concierge did not set holds the account at the identity provider (a DECLINED set there); ' +
            'lift it there. Nothing was changed.',
        );
      case 'retry':
        throw providerUnreachable(
          'The identity provider could not be asked or did not unlock the account. Nothing was changed; try again.',
        );
    }
  });
}
