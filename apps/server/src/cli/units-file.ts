import { readFile } from 'node:fs/promises';
import { LANGUAGES } from '@concierge/contracts';
import type { z } from 'zod';
import {
  batchUnitSchema,
  MAX_UNITS_PER_BATCH,
  NAME_MAX_LENGTH,
  UNIT_MAX_LENGTH,
} from '../admin/admin-schemas';
import { CsvError, type CsvRecord, parseCsv } from '../admin/csv';
import { CliError } from './cli-error';

export type BatchUnit = z.output<typeof batchUnitSchema>;

const COLUMNS = ['unit', 'name', 'language'] as const;
type Column = (typeof COLUMNS)[number];

/**
 * An office's list of units (CSV, header `unit,name,language`; name and language may be left out or
 * empty, the language then de), checked as the server checks it, so that a bad row is named by its
 * line before anything is made.
 */
export async function readUnitsFile(file: string): Promise<BatchUnit[]> {
  const fail = (message: string) => new CliError(`${file}: ${message}`, 2);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw fail(`cannot be read (${(error as Error).message}).`);
  }
  let records: CsvRecord[];
  try {
    records = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvError) throw fail(`not readable as CSV: ${error.message}`);
    throw error;
  }
  const [header, ...rows] = records;
  if (!header) throw fail('is empty; its first line names the columns unit,name,language.');
  const columns = columnsOf(header, fail);
  if (rows.length === 0) throw fail('lists no units.');
  if (rows.length > MAX_UNITS_PER_BATCH) {
    throw fail(`lists ${rows.length} units; a batch has at most ${MAX_UNITS_PER_BATCH}.`);
  }
  const lineOfUnit = new Map<string, number>();
  return rows.map(({ line, fields }) => {
    const at = (message: string) => fail(`line ${line}: ${message}`);
    if (fields.length !== columns.length) {
      throw at(`${fields.length} fields, the header names ${columns.length}.`);
    }
    const value = (column: Column) => fields[columns.indexOf(column)]?.trim() ?? '';
    const raw = {
      unit: value('unit'),
      ...(value('name') ? { name: value('name') } : {}),
      ...(value('language') ? { language: value('language').toLowerCase() } : {}),
    };
    const parsed = batchUnitSchema.safeParse(raw);
    if (!parsed.success) {
      const field = parsed.error.issues[0]?.path[0];
      if (field === 'language') {
        throw at(`the language "${value('language')}" is not one of ${LANGUAGES.join(', ')}.`);
      }
      if (field === 'name') throw at(`the name has more than ${NAME_MAX_LENGTH} characters.`);
      throw at(`the unit must have 1 to ${UNIT_MAX_LENGTH} characters.`);
    }
    const earlier = lineOfUnit.get(parsed.data.unit);
    if (earlier !== undefined) throw at(`the unit "${parsed.data.unit}" is on line ${earlier} already.`);
    lineOfUnit.set(parsed.data.unit, line);
    return parsed.data;
  });
}

function columnsOf(header: CsvRecord, fail: (message: string) => CliError): Column[] {
  const names = header.fields.map((name) => name.trim().toLowerCase());
  for (const name of names) {
    if (!(COLUMNS as readonly string[]).includes(name)) {
      throw fail(`line ${header.line}: unknown column "${name}"; the columns are unit,name,language.`);
    }
  }
  if (!names.includes('unit')) throw fail(`line ${header.line}: no column "unit".`);
  if (new Set(names).size !== names.length) throw fail(`line ${header.line}: a column is named twice.`);
  return names as Column[];
}
