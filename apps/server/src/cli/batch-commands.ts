import { writeFile } from 'node:fs/promises';
import type {
  AdminBatch,
  AdminBatchDetail,
  AdminBatchRevocation,
  AdminCode,
  CodeFigures,
  TenantFigures,
} from '@concierge/contracts';
import { batchCsv } from '../admin/batch-csv';
import type { AdminClient } from './admin-client';
import { type CliOutput, ensureNewFile, query, table, writeCsv } from './command-parts';
import type { ListOptions } from './commands';
import { readUnitsFile } from './units-file';

// Issue 30: a building's letters, one code per unit; what became of them; per-tenant figures.

export async function createBatch(
  client: AdminClient,
  output: CliOutput,
  options: { tenant: string; building: string; unitsFile: string; expiresAt?: string; csvFile?: string },
): Promise<void> {
  const units = await readUnitsFile(options.unitsFile);
  await ensureNewFile(options.csvFile);
  const { batch, codes } = await client.call<AdminBatchDetail>('POST', '/batches', {
    tenant: options.tenant,
    building: options.building,
    units,
    ...(options.expiresAt ? { expiresAt: options.expiresAt } : {}),
  });
  const made = `Created batch ${batch.id} with ${codes.length} codes`;
  await writeCsv(output, batchCsv(codes), options.csvFile, made);
  output.info(
    `${made} for ${batch.building} (${batch.tenant}), ${validity(batch)}` +
      `${options.csvFile ? `, in ${options.csvFile}` : ''}.`,
  );
}

const FIGURE_COLUMNS = ['CODES', 'UNUSED', 'PENDING', 'USED', 'ACTIVATED', 'LOCKED', 'REVOKED', 'EXPIRED'];

function figureCells(figures: CodeFigures): string[] {
  const { codes, unused, pending, used, activated, locked, revoked, expired } = figures;
  return [codes, unused, pending, used, activated, locked, revoked, expired].map(String);
}

export async function listBatches(
  client: AdminClient,
  output: CliOutput,
  options: ListOptions,
): Promise<void> {
  const { batches, total } = await client.call<{ batches: AdminBatch[]; total: number }>(
    'GET',
    `/batches${query({ tenant: options.tenant, limit: options.limit, offset: options.offset })}`,
  );
  output.out(
    table(
      ['ID', 'TENANT', 'BUILDING', 'CREATED', 'EXPIRES', ...FIGURE_COLUMNS],
      batches.map((batch) => [
        batch.id,
        batch.tenant,
        batch.building,
        batch.createdAt,
        batch.expiresAt ?? '',
        ...figureCells(batch.figures),
      ]),
    ),
  );
  output.info(`${batches.length} of ${total} batches, newest first.`);
}

export async function showBatch(client: AdminClient, output: CliOutput, id: string): Promise<void> {
  const { batch, codes } = await client.call<AdminBatchDetail>('GET', `/batches/${encodeURIComponent(id)}`);
  output.out(
    table(
      ['UNIT', 'NAME', 'LANGUAGE', 'CODE', 'STATE', 'E-MAIL'],
      codes.map((code) => [
        code.unit,
        code.name ?? '',
        code.language,
        code.code,
        code.state,
        code.claimedEmail ?? '',
      ]),
    ),
  );
  output.info(`${describe(batch)}\n${summary(batch.figures)}`);
}

export async function revokeBatch(client: AdminClient, output: CliOutput, id: string): Promise<void> {
  const { batch, revoked } = await client.call<AdminBatchRevocation>(
    'POST',
    `/batches/${encodeURIComponent(id)}/revoke`,
  );
  const left = batch.figures.pending;
  output.info(
    `Batch ${batch.id} (${batch.building}): ${revoked > 0 ? `revoked ${revoked} unused codes` : 'no unused codes left to revoke'}` +
      `${left > 0 ? `; ${left} being registered right now finish their registration, or are revoked if it fails` : ''}.`,
  );
}

export async function exportBatch(
  client: AdminClient,
  output: CliOutput,
  options: { id: string; csvFile?: string },
): Promise<void> {
  await ensureNewFile(options.csvFile);
  const csv = await client.text(`/batches/${encodeURIComponent(options.id)}/export`);
  await writeCsv(output, csv, options.csvFile, `Exported batch ${options.id}`);
  if (options.csvFile) output.info(`Exported batch ${options.id} to ${options.csvFile}.`);
}

/**
 * The letters of the batch's unused codes as one PDF, a page per unit, into a new file: printed as
 * they are and posted. Letters for codes used, revoked or expired are not in it.
 */
export async function printLetters(
  client: AdminClient,
  output: CliOutput,
  options: { id: string; pdfFile: string },
): Promise<void> {
  await ensureNewFile(options.pdfFile);
  const pdf = await client.bytes(`/batches/${encodeURIComponent(options.id)}/letters`, 'application/pdf');
  await writeFile(options.pdfFile, pdf, { flag: 'wx' });
  output.info(
    `Wrote the letters of batch ${options.id} to ${options.pdfFile} (${Math.ceil(pdf.length / 1024)} KiB).`,
  );
}

/** Several codes at once, all or none (one code: `codes revoke CODE`, commands.ts). */
export async function revokeCodes(client: AdminClient, output: CliOutput, codes: string[]): Promise<void> {
  const result = await client.call<{ codes: AdminCode[]; revoked: number }>('POST', '/codes/revoke', {
    codes,
  });
  output.info(
    `Revoked ${result.revoked} codes; ${result.codes.length - result.revoked} of them were revoked already.`,
  );
}

export async function showFigures(
  client: AdminClient,
  output: CliOutput,
  options: { tenant?: string },
): Promise<void> {
  const { tenants } = await client.call<{ tenants: TenantFigures[] }>(
    'GET',
    `/figures${query({ tenant: options.tenant })}`,
  );
  output.out(
    table(
      ['TENANT', ...FIGURE_COLUMNS, 'INVITATIONS OPEN'],
      tenants.map((figures) => [figures.tenant, ...figureCells(figures), String(figures.invitationsOpen)]),
    ),
  );
  output.info('LOCKED: accounts locked now, of those registered with a code of the tenant.');
}

function validity(batch: AdminBatch): string {
  return batch.expiresAt ? `valid until ${batch.expiresAt}` : 'valid without end';
}

function describe(batch: AdminBatch): string {
  return (
    `Batch ${batch.id}: ${batch.building} (${batch.tenant}), created ${batch.createdAt}, ${validity(batch)}` +
    `${batch.revokedAt ? `, revoked ${batch.revokedAt}` : ''}.`
  );
}

function summary(figures: CodeFigures): string {
  return (
    `${figures.codes} codes: ${figures.unused} unused, ${figures.pending} pending, ${figures.used} used ` +
    `(${figures.activated} activated, ${figures.locked} locked), ${figures.revoked} revoked, ${figures.expired} expired.`
  );
}
