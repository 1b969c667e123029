import type { ConsoleFormAgain, ConsolePage, ConsoleTenant, InvitationFormField } from '@concierge/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireTenant } from '../../admin/admin-auth';
import { MAX_AUDIT_ENTRIES_PER_PAGE } from '../../admin/admin-schemas';
import { listAdminChanges } from '../../admin/audit-log';
import { batchCsv, batchCsvFileName } from '../../admin/batch-csv';
import { listCodeBatches, showCodeBatch } from '../../admin/batches-admin';
import { tenantFigures } from '../../admin/figures-admin';
import { listOpenInvitationRequests } from '../../admin/invitation-requests-admin';
import { listInvitations } from '../../admin/invitations-admin';
import { batchLetters } from '../../admin/letters/batch-letters';
import { AppError } from '../../http/errors';
import { parseInput } from '../../http/parse-input';
import { actorOf, type ConsoleDeps, sendPage, sessionOf, tenantOfPath, tenantsOf } from './console-context';

const tenantParams = z.object({ tenant: z.string() });
const batchParams = z.object({
  tenant: z.string(),
  id: z.uuid({ version: 'v4', error: 'must be a batch id' }).transform((id) => id.toLowerCase()),
});
const auditQuery = z.object({
  tenant: z.string().optional(),
  before: z.coerce.number().int().min(1).optional(),
});

/** What a console list shows at most; a tenant with more pages through the admin API or the CLI. */
const LIST_LIMIT = 500;

/** The invitations page: newest first (the office looks for the one it just sent), and the open requests. */
export async function invitationsView(
  deps: ConsoleDeps,
  request: FastifyRequest,
  tenant: ConsoleTenant,
  form: ConsoleFormAgain<InvitationFormField> | null,
): Promise<ConsolePage> {
  const scope = { tenant: tenant.subdomain, tenants: actorOf(request).tenants, limit: LIST_LIMIT, offset: 0 };
  const invitations = await listInvitations(deps, { ...scope, newestFirst: true });
  const requests = await listOpenInvitationRequests(deps.db, scope);
  return { page: 'invitations', tenant, invitations: invitations.items, requests: requests.items, form };
}

/**
 * The console's pages: each reads through the admin functions with the signed-in user as the actor,
 * which refuse another tenant's things (403) as they do for the admin API.
 */
export function consolePageRoutes(app: FastifyInstance, deps: ConsoleDeps) {
  const { db, config, registry } = deps;

  app.get('/console', async (request, reply) => {
    const tenants = tenantsOf(deps, sessionOf(request)).map((tenant) => tenant.subdomain);
    return sendPage(deps, request, reply, { page: 'home', figures: await tenantFigures(db, tenants) });
  });

  app.get('/console/t/:tenant', async (request, reply) => {
    const tenant = tenantOfPath(deps, request, parseInput(tenantParams, request.params).tenant);
    const scope = {
      tenant: tenant.subdomain,
      tenants: actorOf(request).tenants,
      limit: LIST_LIMIT,
      offset: 0,
    };
    const [figures] = await tenantFigures(db, [tenant.subdomain]);
    const batches = await listCodeBatches(db, scope);
    const requests = await listOpenInvitationRequests(db, scope);
    return sendPage(deps, request, reply, {
      page: 'tenant',
      tenant,
      figures: figures!,
      batches: batches.items,
      requests: requests.items,
    });
  });

  app.get('/console/t/:tenant/batches/new', async (request, reply) => {
    const tenant = tenantOfPath(deps, request, parseInput(tenantParams, request.params).tenant);
    return sendPage(deps, request, reply, { page: 'batch-new', tenant, form: null });
  });

  /** A batch of the tenant in the path: another tenant's batch is not found under it. */
  async function batchOf(request: FastifyRequest) {
    const params = parseInput(batchParams, request.params);
    const tenant = tenantOfPath(deps, request, params.tenant);
    const detail = await showCodeBatch({ db, config }, params.id, actorOf(request));
    if (detail.batch.tenant !== tenant.subdomain) {
      throw new AppError(404, 'batch_not_found', 'No batch with this id exists.');
    }
    return { tenant, detail };
  }

  app.get('/console/t/:tenant/batches/:id', async (request, reply) => {
    const { tenant, detail } = await batchOf(request);
    return sendPage(deps, request, reply, { page: 'batch', tenant, detail });
  });

  app.get('/console/t/:tenant/batches/:id/export.csv', async (request, reply) => {
    const { detail } = await batchOf(request);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="${batchCsvFileName(detail.batch.id)}"`)
      .send(batchCsv(detail.codes));
  });

  // Shown by the browser (inline): the office looks at the letters before it prints them.
  app.get('/console/t/:tenant/batches/:id/letters.pdf', async (request, reply) => {
    const { detail } = await batchOf(request);
    const pdf = await batchLetters({ db, config, registry }, detail.batch.id, actorOf(request));
    return reply
      .header('content-type', 'application/pdf')
      .header('cache-control', 'no-store')
      .header('content-disposition', `inline; filename="letters-${detail.batch.id}.pdf"`)
      .send(pdf);
  });

  app.get('/console/t/:tenant/invitations', async (request, reply) => {
    const tenant = tenantOfPath(deps, request, parseInput(tenantParams, request.params).tenant);
    return sendPage(deps, request, reply, await invitationsView(deps, request, tenant, null));
  });

  app.get('/console/audit', async (request, reply) => {
    const query = parseInput(auditQuery, request.query);
    const actor = actorOf(request);
    const tenant = query.tenant ? tenantOfPath(deps, request, query.tenant) : null;
    if (tenant) requireTenant(actor, tenant.subdomain);
    const log = await listAdminChanges(db, {
      ...(tenant ? { tenant: tenant.subdomain } : {}),
      tenants: actor.tenants,
      limit: Math.min(100, MAX_AUDIT_ENTRIES_PER_PAGE),
      ...(query.before ? { before: query.before } : {}),
    });
    return sendPage(deps, request, reply, { page: 'audit', tenant, log });
  });
}
