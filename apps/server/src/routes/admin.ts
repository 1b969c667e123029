import { type AdminUnlockedAccount, ok } from '@concierge/contracts';
import type { Kysely } from '@concierge/database';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unlockOnAdminRequest } from '../accounts/protection/admin-unlock';
import { type AdminActor, adminAuthentication, mayActFor, requireTenant } from '../admin/admin-auth';
import { takeAdminQuota } from '../admin/admin-quotas';
import {
  batchParamsSchema,
  codeParamsSchema,
  createBatchBodySchema,
  createCodesBodySchema,
  createInvitationBodySchema,
  figuresQuerySchema,
  invitationParamsSchema,
  listAuditQuerySchema,
  listBatchesQuerySchema,
  listCodesQuerySchema,
  listInvitationRequestsQuerySchema,
  listInvitationsQuerySchema,
  revokeCodesBodySchema,
  unlockAccountBodySchema,
} from '../admin/admin-schemas';
import { listAdminChanges, recordAdminChange } from '../admin/audit-log';
import { batchCsv, batchCsvFileName } from '../admin/batch-csv';
import { createCodeBatch, listCodeBatches, revokeCodeBatch, showCodeBatch } from '../admin/batches-admin';
import {
  createRegistrationCodes,
  listRegistrationCodes,
  revokeRegistrationCode,
  revokeRegistrationCodes,
  toAdminCode,
} from '../admin/codes-admin';
import { tenantFigures } from '../admin/figures-admin';
import { listOpenInvitationRequests } from '../admin/invitation-requests-admin';
import { resendInvitation } from '../admin/invitation-resend';
import { createInvitation, listInvitations, revokeInvitation } from '../admin/invitations-admin';
import { batchLetters } from '../admin/letters/batch-letters';
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
  config: Pick<ServerConfig, 'portalUrl' | 'adminQuotas' | 'invitationValidityDays'>;
  /** The accepted tokens: ADMIN_API_TOKEN's values, two while it is rotated. */
  tokens: readonly string[];
  /** A console user's session as the actor of a call without a token (routes/console/console-context.ts). */
  consoleActor?: (request: FastifyRequest) => Promise<AdminActor | null>;
  metrics: Pick<ServerMetrics, 'authRefusals'>;
}

/**
 * The operators' admin API: registration codes (alone, or a building's batch with a code per unit),
 * invitations (made, listed, withdrawn, sent again) and the invitees' requests for new ones,
 * unlocking accounts, per-tenant figures and the audit log of those changes. Register it with
 * `prefix: ADMIN_API_PREFIX`; every route needs the bearer token.
 * Every change writes its audit row in its own transaction (admin/audit-log.ts). Answers use the same
 * envelope as the portal's calls.
 */
export async function adminRoutes(app: FastifyInstance, options: AdminOptions) {
  const { db, provider, registry, config } = options;
  const authentication = adminAuthentication(options.tokens, options.metrics, options.consoleActor);
  const actorOf = authentication.actorOf;
  app.addHook('onRequest', authentication.check);
  // JSON only: a cross-site form can send text/plain, never application/json without CORS.
  app.removeContentTypeParser('text/plain');

  /** A tenant the caller names: theirs to manage (403) and in the registry (400), before any quota is taken. */
  function knownTenant(subdomain: string, actor: AdminActor): string {
    requireTenant(actor, subdomain);
    if (!registry.bySubdomain(subdomain)) {
      throw new AppError(400, 'unknown_tenant', `No tenant with the subdomain "${subdomain}".`);
    }
    return subdomain;
  }

  /** A listing's scope: a tenant asked for must be the caller's (403), and none lists only the caller's. */
  function listScope(
    request: FastifyRequest,
    tenant: string | undefined,
  ): { tenants: AdminActor['tenants'] } {
    const actor = actorOf(request);
    if (tenant) requireTenant(actor, tenant);
    return { tenants: actor.tenants };
  }

  app.post('/codes', async (request, reply) => {
    const body = parseInput(createCodesBodySchema, request.body);
    const tenant = knownTenant(body.tenant, actorOf(request));
    await takeAdminQuota(db, config.adminQuotas, { what: 'codes', tenant, amount: body.count });
    const created = await createRegistrationCodes(db, { tenant, count: body.count }, actorOf(request));
    return reply
      .status(201)
      .send(ok({ codes: created.map((row) => toAdminCode(row, config.portalUrl)) }, 201));
  });

  app.get('/codes', async (request) => {
    const query = parseInput(listCodesQuerySchema, request.query);
    const list = await listRegistrationCodes(db, { ...query, ...listScope(request, query.tenant) });
    return ok({ codes: list.items.map((row) => toAdminCode(row, config.portalUrl)), total: list.total });
  });

  app.post('/codes/:code/revoke', async (request) => {
    const { code } = parseInput(codeParamsSchema, request.params);
    const revoked = await revokeRegistrationCode(db, code, actorOf(request));
    return ok({ code: toAdminCode(revoked, config.portalUrl) });
  });

  // A selection of codes, all or none (the path is no code: a code is a version-4 UUID).
  app.post('/codes/revoke', async (request) => {
    const body = parseInput(revokeCodesBodySchema, request.body);
    const result = await revokeRegistrationCodes(db, body.codes, actorOf(request));
    return ok({
      codes: result.codes.map((row) => toAdminCode(row, config.portalUrl)),
      revoked: result.revoked,
    });
  });

  app.post('/batches', async (request, reply) => {
    const body = parseInput(createBatchBodySchema, request.body);
    const tenant = knownTenant(body.tenant, actorOf(request));
    await takeAdminQuota(db, config.adminQuotas, { what: 'codes', tenant, amount: body.units.length });
    const created = await createCodeBatch({ db, config }, { ...body, tenant }, actorOf(request));
    return reply.status(201).send(ok(created, 201));
  });

  app.get('/batches', async (request) => {
    const query = parseInput(listBatchesQuerySchema, request.query);
    const list = await listCodeBatches(db, { ...query, ...listScope(request, query.tenant) });
    return ok({ batches: list.items, total: list.total });
  });

  app.get('/batches/:id', async (request) => {
    const { id } = parseInput(batchParamsSchema, request.params);
    return ok(await showCodeBatch({ db, config }, id, actorOf(request)));
  });

  app.post('/batches/:id/revoke', async (request) => {
    const { id } = parseInput(batchParamsSchema, request.params);
    return ok(await revokeCodeBatch({ db, config }, id, actorOf(request)));
  });

  // The letters' mail merge reads it: one line per unit, with the code, its link and its state.
  // Kept by no cache, as the JSON answers are (http/json-cache-control.ts): it holds codes and e-mails.
  app.get('/batches/:id/export', async (request, reply) => {
    const { id } = parseInput(batchParamsSchema, request.params);
    const { codes } = await showCodeBatch({ db, config }, id, actorOf(request));
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="${batchCsvFileName(id)}"`)
      .send(batchCsv(codes));
  });

  // The letters to post: a PDF page per unused code, in its unit's language and the tenant's brand.
  app.get('/batches/:id/letters', async (request, reply) => {
    const { id } = parseInput(batchParamsSchema, request.params);
    const pdf = await batchLetters({ db, config, registry }, id, actorOf(request));
    return reply
      .header('content-type', 'application/pdf')
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="letters-${id}.pdf"`)
      .send(pdf);
  });

  // Every tenant of the registry, or the one asked for.
  app.get('/figures', async (request) => {
    const query = parseInput(figuresQuerySchema, request.query);
    const actor = actorOf(request);
    const tenants = query.tenant
      ? [knownTenant(query.tenant, actor)]
      : registry.tenants.map((entry) => entry.subdomain).filter((tenant) => mayActFor(actor, tenant));
    return ok({ tenants: await tenantFigures(db, tenants) });
  });

  app.post('/invitations', async (request, reply) => {
    const body = parseInput(createInvitationBodySchema, request.body);
    const tenant = knownTenant(body.tenant, actorOf(request));
    await takeAdminQuota(db, config.adminQuotas, { what: 'invitations', tenant, amount: 1 });
    const invitation = await createInvitation({ db, registry, config }, body, actorOf(request));
    return reply.status(201).send(ok({ invitation }, 201));
  });

  app.get('/invitations', async (request) => {
    const query = parseInput(listInvitationsQuerySchema, request.query);
    const list = await listInvitations({ db, config }, { ...query, ...listScope(request, query.tenant) });
    return ok({ invitations: list.items, total: list.total });
  });

  app.post('/invitations/:id/revoke', async (request) => {
    const { id } = parseInput(invitationParamsSchema, request.params);
    return ok({ invitation: await revokeInvitation({ db, config }, id, actorOf(request)) });
  });

  // A new invitation in place of this one (issue 30); it takes the quota inside its transaction.
  app.post('/invitations/:id/resend', async (request, reply) => {
    const { id } = parseInput(invitationParamsSchema, request.params);
    const resent = await resendInvitation({ db, registry, config }, id, actorOf(request));
    return reply.status(201).send(ok(resent, 201));
  });

  // The invitees' requests for a new invitation that no new one has answered yet, oldest first.
  app.get('/invitation-requests', async (request) => {
    const query = parseInput(listInvitationRequestsQuerySchema, request.query);
    const list = await listOpenInvitationRequests(db, { ...query, ...listScope(request, query.tenant) });
    return ok({ requests: list.items, total: list.total });
  });

  // The changes made through this API, newest first (docs/operations.md, "Audit log of the admin API").
  app.get('/audit', async (request) => {
    const query = parseInput(listAuditQuerySchema, request.query);
    const actor = actorOf(request);
    if (query.tenant) requireTenant(actor, query.tenant);
    return ok(await listAdminChanges(db, { ...query, tenants: actor.tenants }));
  });

  // Through the one owner of the lock (accounts/protection/): all or nothing, idempotent.
  app.post('/accounts/unlock', async (request) => {
    const { email } = parseInput(unlockAccountBodySchema, request.body);
    // An account belongs to no one tenant: unlocking it is an operator's.
    if (actorOf(request).tenants !== 'all') {
      throw new AppError(403, 'operator_only', 'Only an operator may unlock an account.');
    }
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
