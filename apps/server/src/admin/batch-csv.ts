import type { AdminBatchCode } from '@concierge/contracts';
import { toCsv } from './csv';

/** A batch's codes as the letters' mail merge reads them: one line per unit (GET /batches/:id/export). */
export const BATCH_CSV_HEADER = [
  'unit',
  'name',
  'language',
  'code',
  'register_url',
  'state',
  'email',
] as const;

export function batchCsv(codes: readonly AdminBatchCode[]): string {
  return toCsv(
    BATCH_CSV_HEADER,
    codes.map((code) => [
      code.unit,
      code.name ?? '',
      code.language,
      code.code,
      code.registerUrl,
      code.state,
      code.claimedEmail ?? '',
    ]),
  );
}

/** The file name an export is saved under: the batch's id, since a building's name may be any text. */
export function batchCsvFileName(batchId: string): string {
  return `codes-${batchId}.csv`;
}
