import { randomUUID } from 'node:crypto';
import type { AdminCode, AdminList } from '@concierge/contracts';
import type { Insertable, Kysely, Selectable } from '@concierge/database';
import type { RegistrationCodeStatus, RegistrationCodesTable, ServerTables } from '../db/schema';
import { AppError } from '../http/errors';
import { registerLink } from '../mail/links';
import { type AdminActor, requireTenant } from './admin-auth';
import { recordAdminChange } from './audit-log';

// PostgreSQL takes at most 65535 parameters per statement: at most 10 per row (a batch's code), well
// under that per chunk.
const INSERT_CHUNK = 1000;

/** New codes, in chunks a statement can take, inside the caller's transaction. */
export async function insertCodes(
  trx: Kysely<ServerTables>,
  rows: Insertable<RegistrationCodesTable>[],
): Promise<Selectable<RegistrationCodesTable>[]> {
  const created: Selectable<RegistrationCodesTable>[] = [];
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    const chunk = rows.slice(start, start + INSERT_CHUNK);
    created.push(...(await trx.insertInto('registration_codes').values(chunk).returningAll().execute()));
  }
  return created;
}

export function toAdminCode(row: Selectable<RegistrationCodesTable>, portalUrl: string): AdminCode {
  return {
    code: row.code,
    tenant: row.tenant,
    status: row.status,
    claimedEmail: row.claimed_email,
    sub: row.sub,
    createdAt: row.created_at.toISOString(),
    usedAt: row.used_at?.toISOString() ?? null,
    revokedAt: row.revoked_at?.toISOString() ?? null,
    registerUrl: registerLink(portalUrl, { code: row.code, subdomain: row.tenant }),
  };
}

/** New unused codes for one tenant and their audit row, all or none (one transaction). */
export async function createRegistrationCodes(
  db: Kysely<ServerTables>,
  input: { tenant: string; count: number },
  actor: AdminActor,
): Promise<Selectable<RegistrationCodesTable>[]> {
  requireTenant(actor, input.tenant);
  const createdAt = new Date();
  const rows = Array.from({ length: input.count }, () => ({
    code: randomUUID(),
    tenant: input.tenant,
    status: 'unused' as const,
    created_at: createdAt,
  }));
  return db.transaction().execute(async (trx) => {
    const created = await insertCodes(trx, rows);
    await recordAdminChange(trx, actor, {
      action: 'codes.create',
      tenant: input.tenant,
      target: null,
      amount: created.length,
      outcome: 'changed',
    });
    return created;
  });
}

export async function listRegistrationCodes(
  db: Kysely<ServerTables>,
  filter: {
    tenant?: string;
    tenants: AdminActor['tenants'];
    status?: RegistrationCodeStatus;
    limit: number;
    offset: number;
  },
): Promise<AdminList<Selectable<RegistrationCodesTable>>> {
  let query = db.selectFrom('registration_codes');
  if (filter.tenant) query = query.where('tenant', '=', filter.tenant);
  if (filter.tenants !== 'all') query = query.where('tenant', 'in', [...filter.tenants, '']);
  if (filter.status) query = query.where('status', '=', filter.status);
  const items = await query
    .selectAll()
    .orderBy('created_at')
    .orderBy('code')
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
  const { total } = await query.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
  // pg returns count(*) (a bigint) as a string.
  return { items, total: Number(total) };
}

/**
 * unused → revoked; a code already revoked stays so (revoking twice is no error). A pending or used
 * code belongs to a registration and cannot be revoked. An open invitation of the code goes too.
 * Audited in the same transaction, a repeat as unchanged.
 */
export async function revokeRegistrationCode(
  db: Kysely<ServerTables>,
  code: string,
  actor: AdminActor,
): Promise<Selectable<RegistrationCodesTable>> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('registration_codes')
      .selectAll()
      .where('code', '=', code)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw new AppError(404, 'code_not_found', 'No registration code like this exists.');
    requireTenant(actor, row.tenant);
    const audit = (outcome: 'changed' | 'unchanged') =>
      recordAdminChange(trx, actor, { action: 'code.revoke', tenant: row.tenant, target: code, outcome });
    if (row.status === 'revoked') {
      await audit('unchanged');
      return row;
    }
    if (row.status !== 'unused') {
      throw new AppError(
        409,
        'code_not_revocable',
        `The code is ${row.status}; only unused codes can be revoked.`,
      );
    }
    const now = new Date();
    await trx
      .updateTable('invitations')
      .set({ revoked_at: now })
      .where('code', '=', code)
      .where('revoked_at', 'is', null)
      .execute();
    await audit('changed');
    return trx
      .updateTable('registration_codes')
      .set({ status: 'revoked', revoked_at: now })
      .where('code', '=', code)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

/**
 * A selection of codes revoked all or none, with open invitations of them; one audit row per tenant
 * of the selection (amount: how many this call revoked there). Any code unknown: 404 naming them;
 * any pending or used (it belongs to a registration): 409 naming them — and nothing changes. Codes
 * revoked already stay so (a repeat is no error).
 */
export async function revokeRegistrationCodes(
  db: Kysely<ServerTables>,
  codes: readonly string[],
  actor: AdminActor,
): Promise<{ codes: Selectable<RegistrationCodesTable>[]; revoked: number }> {
  return db.transaction().execute(async (trx) => {
    // Locked in one order, so that two selections that overlap never wait for each other in a circle.
    const rows = await trx
      .selectFrom('registration_codes')
      .selectAll()
      .where('code', 'in', codes)
      .orderBy('code')
      .forUpdate()
      .execute();
    const found = new Set(rows.map((row) => row.code));
    const unknown = codes.filter((code) => !found.has(code));
    if (unknown.length > 0) {
      throw new AppError(
        404,
        'code_not_found',
        `${unknown.length} of the codes do not exist: ${unknown.join(', ')}. Nothing was revoked.`,
      );
    }
    for (const row of rows) requireTenant(actor, row.tenant);
    const registered = rows.filter((row) => row.status === 'pending' || row.status === 'used');
    if (registered.length > 0) {
      throw new AppError(
        409,
        'code_not_revocable',
        `${registered.length} of the codes belong to a registration and cannot be revoked: ` +
          `${registered.map((row) => `${row.code} (${row.status})`).join(', ')}. Nothing was revoked.`,
      );
    }
    const unused = rows.filter((row) => row.status === 'unused').map((row) => row.code);
    const now = new Date();
    if (unused.length > 0) {
      await trx
        .updateTable('invitations')
        .set({ revoked_at: now })
        .where('code', 'in', unused)
        .where('revoked_at', 'is', null)
        .execute();
      await trx
        .updateTable('registration_codes')
        .set({ status: 'revoked', revoked_at: now })
        .where('code', 'in', unused)
        .execute();
    }
    for (const tenant of new Set(rows.map((row) => row.tenant))) {
      const amount = rows.filter((row) => row.tenant === tenant && row.status === 'unused').length;
      await recordAdminChange(trx, actor, {
        action: 'codes.revoke',
        tenant,
        target: null,
        amount,
        outcome: amount > 0 ? 'changed' : 'unchanged',
      });
    }
    const after = await trx.selectFrom('registration_codes').selectAll().where('code', 'in', codes).execute();
    const byCode = new Map(after.map((row) => [row.code, row]));
    return { codes: codes.map((code) => byCode.get(code)!), revoked: unused.length };
  });
}
