import { randomUUID } from 'node:crypto';
import type {
  AdminBatch,
  AdminBatchCode,
  AdminBatchDetail,
  AdminBatchRevocation,
  AdminList,
  CodeFigures,
} from '@concierge/contracts';
import { FALLBACK_LANGUAGE, isLanguage, type Language } from '@concierge/contracts';
import type { Kysely, Selectable } from '@concierge/database';
import type { ServerConfig } from '../config';
import type { CodeBatchesTable, ServerTables } from '../db/schema';
import { AppError } from '../http/errors';
import { type AdminActor, requireTenant } from './admin-auth';
import { recordAdminChange } from './audit-log';
import { codeFactColumns, countFigures, stateOf, toFigures } from './code-states';
import { insertCodes, toAdminCode } from './codes-admin';

// Issue 30: a building's letters, one code per unit, so that the office sees which flat registered.

export interface BatchDeps {
  db: Kysely<ServerTables>;
  config: Pick<ServerConfig, 'portalUrl'>;
}

export interface NewBatch {
  tenant: string;
  building: string;
  expiresAt?: Date;
  units: { unit: string; name?: string; language: Language }[];
}

/** The batch, a code per unit and the audit row, all or none (one transaction). */
export async function createCodeBatch(
  deps: BatchDeps,
  input: NewBatch,
  actor: AdminActor,
): Promise<AdminBatchDetail> {
  const batch: Selectable<CodeBatchesTable> = {
    id: randomUUID(),
    tenant: input.tenant,
    building: input.building,
    created_at: new Date(),
    expires_at: input.expiresAt ?? null,
    revoked_at: null,
  };
  const rows = input.units.map((entry) => ({
    code: randomUUID(),
    tenant: batch.tenant,
    status: 'unused' as const,
    created_at: batch.created_at,
    batch_id: batch.id,
    unit: entry.unit,
    recipient_name: entry.name || null,
    letter_language: entry.language,
    // The code's own copy: the claim checks it on the code's row (accounts/registration-codes.ts).
    expires_at: batch.expires_at,
  }));
  requireTenant(actor, input.tenant);
  const created = await deps.db.transaction().execute(async (trx) => {
    await trx.insertInto('code_batches').values(batch).execute();
    const inserted = await insertCodes(trx, rows);
    await recordAdminChange(trx, actor, {
      action: 'batch.create',
      tenant: batch.tenant,
      target: batch.id,
      amount: inserted.length,
      outcome: 'changed',
    });
    return inserted;
  });
  // In the order of the request (the office's list), every one unused.
  const byCode = new Map(created.map((row) => [row.code, row]));
  const fresh = { is_expired: false, is_activated: false, is_locked: false };
  return {
    batch: toAdminBatch(batch, toFigures({ codes: rows.length, unused: rows.length })),
    codes: rows.map((row) => toAdminBatchCode({ ...byCode.get(row.code)!, ...fresh }, deps.config.portalUrl)),
  };
}

/** Newest first, each with its figures (one statement for the figures of the whole page). */
export async function listCodeBatches(
  db: Kysely<ServerTables>,
  filter: { tenant?: string; tenants: AdminActor['tenants']; limit: number; offset: number },
): Promise<AdminList<AdminBatch>> {
  let query = db.selectFrom('code_batches');
  if (filter.tenant) query = query.where('tenant', '=', filter.tenant);
  if (filter.tenants !== 'all') query = query.where('tenant', 'in', [...filter.tenants, '']);
  const batches = await query
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
  const { total } = await query.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
  const figures = await countFigures(
    db,
    'batch_id',
    batches.map((batch) => batch.id),
    new Date(),
  );
  return {
    items: batches.map((batch) => toAdminBatch(batch, toFigures(figures.get(batch.id)))),
    total: Number(total),
  };
}

/** The batch and every code with its state, in the order of the units; 404 for an unknown batch. */
export async function showCodeBatch(
  deps: BatchDeps,
  id: string,
  actor: Pick<AdminActor, 'tenants'>,
): Promise<AdminBatchDetail> {
  const { db, config } = deps;
  const batch = await db.selectFrom('code_batches').selectAll().where('id', '=', id).executeTakeFirst();
  if (!batch) throw batchNotFound();
  requireTenant(actor, batch.tenant);
  const at = new Date();
  const codes = await db
    .selectFrom('registration_codes')
    .selectAll()
    .select(codeFactColumns(at))
    .where('batch_id', '=', id)
    .execute();
  // In the order an office counts its flats: "2" before "10", "EG" and "1.OG" as they come.
  codes.sort((a, b) => UNIT_ORDER.compare(a.unit ?? '', b.unit ?? ''));
  const figures = await countFigures(db, 'batch_id', [id], at);
  return {
    batch: toAdminBatch(batch, toFigures(figures.get(id))),
    codes: codes.map((row) => toAdminBatchCode(row, config.portalUrl)),
  };
}

/**
 * Every code of the batch still unused is revoked (with an open invitation of it, as for one code),
 * and the batch is marked revoked — with the audit row, in one transaction. A code being registered
 * right now (pending) is left to its registration; should that fail, its release revokes it
 * (accounts/registration-codes.ts). A repeat that finds nothing to do is audited as unchanged.
 */
export async function revokeCodeBatch(
  deps: BatchDeps,
  id: string,
  actor: AdminActor,
): Promise<AdminBatchRevocation> {
  const revoked = await deps.db.transaction().execute(async (trx) => {
    const batch = await trx
      .selectFrom('code_batches')
      .select(['tenant', 'revoked_at'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!batch) throw batchNotFound();
    requireTenant(actor, batch.tenant);
    const now = new Date();
    // One conditional update: a claim of the same code waits for it, or it for the claim.
    const codes = await trx
      .updateTable('registration_codes')
      .set({ status: 'revoked', revoked_at: now })
      .where('batch_id', '=', id)
      .where('status', '=', 'unused')
      .returning('code')
      .execute();
    if (codes.length > 0) {
      await trx
        .updateTable('invitations')
        .set({ revoked_at: now })
        .where(
          'code',
          'in',
          codes.map((row) => row.code),
        )
        .where('revoked_at', 'is', null)
        .execute();
    }
    if (!batch.revoked_at) {
      await trx.updateTable('code_batches').set({ revoked_at: now }).where('id', '=', id).execute();
    }
    const isChange = codes.length > 0 || !batch.revoked_at;
    await recordAdminChange(trx, actor, {
      action: 'batch.revoke',
      tenant: batch.tenant,
      target: id,
      amount: codes.length,
      outcome: isChange ? 'changed' : 'unchanged',
    });
    return codes.length;
  });
  return { ...(await showCodeBatch(deps, id, actor)), revoked };
}

const UNIT_ORDER = new Intl.Collator('de-CH', { numeric: true });

function batchNotFound(): AppError {
  return new AppError(404, 'batch_not_found', 'No batch of codes with this id exists.');
}

function toAdminBatch(batch: Selectable<CodeBatchesTable>, figures: CodeFigures): AdminBatch {
  return {
    id: batch.id,
    tenant: batch.tenant,
    building: batch.building,
    createdAt: batch.created_at.toISOString(),
    expiresAt: batch.expires_at?.toISOString() ?? null,
    revokedAt: batch.revoked_at?.toISOString() ?? null,
    figures,
  };
}

type CodeWithFacts = Parameters<typeof toAdminCode>[0] & Parameters<typeof stateOf>[0];

function toAdminBatchCode(row: CodeWithFacts, portalUrl: string): AdminBatchCode {
  return {
    ...toAdminCode(row, portalUrl),
    unit: row.unit ?? '',
    name: row.recipient_name,
    language:
      row.letter_language && isLanguage(row.letter_language) ? row.letter_language : FALLBACK_LANGUAGE,
    expiresAt: row.expires_at?.toISOString() ?? null,
    state: stateOf(row),
  };
}
