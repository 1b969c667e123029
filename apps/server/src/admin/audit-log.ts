import type { AdminAuditEntry, AdminAuditPage } from '@concierge/contracts';
import type { Kysely, Selectable } from '@concierge/database';
import type { AdminAuditAction, AdminAuditOutcome, AdminAuditTable, ServerTables } from '../db/schema';
import type { AdminActor } from './admin-auth';

export interface AdminChange {
  action: AdminAuditAction;
  tenant: string | null;
  target: string | null;
  amount?: number;
  outcome: AdminAuditOutcome;
}

/**
 * The audit log of the admin API (docs/operations.md, "Audit log of the admin API"): one row per change, written with
 * the transaction that makes the change, so that a change rolled back leaves no row and a row that
 * cannot be written undoes the change. A refused call changes nothing and writes none (its request
 * log line says why). An e-mail is stored as the admin API's own tables keep it (normalised); the
 * row is kept AUDIT_RETENTION_DAYS and never logged.
 */
export async function recordAdminChange(
  trx: Kysely<ServerTables>,
  actor: AdminActor,
  change: AdminChange,
): Promise<void> {
  await trx
    .insertInto('admin_audit')
    .values({
      at: new Date(),
      token_fingerprint: actor.tokenFingerprint,
      user_email: actor.user?.email ?? null,
      user_sub: actor.user?.sub ?? null,
      request_id: actor.requestId,
      action: change.action,
      tenant: change.tenant,
      target: change.target,
      amount: change.amount ?? null,
      outcome: change.outcome,
    })
    .execute();
}

/**
 * A page of the log, newest first, optionally one tenant's; `before` continues from a page's `next`.
 * `tenants` narrows it to a property manager's tenants (an unlock, which is no tenant's, is then left out).
 */
export async function listAdminChanges(
  db: Kysely<ServerTables>,
  filter: { tenant?: string; tenants?: 'all' | readonly string[]; limit: number; before?: number },
): Promise<AdminAuditPage> {
  let query = db.selectFrom('admin_audit').selectAll();
  if (filter.tenant) query = query.where('tenant', '=', filter.tenant);
  if (filter.tenants && filter.tenants !== 'all') {
    if (filter.tenants.length === 0) return { entries: [], next: null };
    query = query.where('tenant', 'in', filter.tenants);
  }
  if (filter.before !== undefined) query = query.where('id', '<', String(filter.before));
  // One more than asked for tells whether an older page exists.
  const rows = await query
    .orderBy('id', 'desc')
    .limit(filter.limit + 1)
    .execute();
  const entries = rows.slice(0, filter.limit).map(toEntry);
  return { entries, next: rows.length > filter.limit ? (entries.at(-1)?.id ?? null) : null };
}

/** Housekeeping: rows older than AUDIT_RETENTION_DAYS. */
export async function pruneAdminAudit(db: Kysely<ServerTables>, retentionDays: number): Promise<void> {
  await db
    .deleteFrom('admin_audit')
    .where('at', '<', new Date(Date.now() - retentionDays * 24 * 3600 * 1000))
    .execute();
}

function toEntry(row: Selectable<AdminAuditTable>): AdminAuditEntry {
  return {
    id: Number(row.id),
    at: row.at.toISOString(),
    token: row.token_fingerprint,
    user: row.user_email,
    requestId: row.request_id,
    action: row.action,
    tenant: row.tenant,
    target: row.target,
    amount: row.amount,
    outcome: row.outcome,
  };
}
