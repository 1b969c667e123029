import type { TenantFigures } from '@concierge/contracts';
import type { Kysely } from '@concierge/database';
import { invitationsWithCodes, openAt } from '../accounts/invitations';
import type { ServerTables } from '../db/schema';
import { countFigures, toFigures } from './code-states';

/**
 * Per tenant: its codes by state (every code, from a batch or not; admin/code-states.ts says how
 * activated and locked are known), its invitations still open (neither withdrawn, expired nor
 * registered with), and — as `locked` — its accounts locked now: an e-mail holds at most one
 * registered code (the claimed-e-mail index), so each locked account of the tenant is counted once.
 * Two statements for any number of tenants.
 */
export async function tenantFigures(
  db: Kysely<ServerTables>,
  tenants: readonly string[],
): Promise<TenantFigures[]> {
  if (tenants.length === 0) return [];
  const now = new Date();
  const figures = await countFigures(db, 'tenant', tenants, now);
  const invitations = await openAt(invitationsWithCodes(db), now)
    .select(['invitations.tenant', (eb) => eb.fn.countAll<string>().as('open')])
    .where('invitations.tenant', 'in', tenants)
    .groupBy('invitations.tenant')
    .execute();
  const open = new Map(invitations.map((row) => [row.tenant, Number(row.open)]));
  return tenants.map((tenant) => ({
    tenant,
    ...toFigures(figures.get(tenant)),
    invitationsOpen: open.get(tenant) ?? 0,
  }));
}
