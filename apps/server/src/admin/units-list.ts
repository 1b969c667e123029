import { LANGUAGES } from '@concierge/contracts';
import type { z } from 'zod';
import { batchUnitSchema, MAX_UNITS_PER_BATCH, NAME_MAX_LENGTH, UNIT_MAX_LENGTH } from './admin-schemas';
import { CsvError, type CsvRecord, parseCsv } from './csv';

export type BatchUnit = z.output<typeof batchUnitSchema>;

const COLUMNS = ['unit', 'name', 'language'] as const;
type Column = (typeof COLUMNS)[number];

/** What is wrong with a list of units, by a code the console words and a message the CLI prints. */
export class UnitsListProblem extends Error {
  override name = 'UnitsListProblem';
  constructor(
    readonly code:
      | 'not_csv'
      | 'no_header'
      | 'unknown_column'
      | 'no_units'
      | 'too_many_units'
      | 'field_count'
      | 'bad_unit'
      | 'bad_name'
      | 'bad_language'
      | 'unit_twice',
    message: string,
    /** The line it is on, from 1; undefined for the list as a whole. */
    readonly line?: number,
  ) {
    super(line === undefined ? message : `line ${line}: ${message}`);
  }
}

/**
 * An office's list of units, checked as the server checks a batch so that a bad row is named by its
 * line before anything is made. A file (the CLI's, the console's upload) is CSV with the header
 * `unit,name,language`, its fields separated as its header separates them: commas, or semicolons as
 * Swiss spreadsheets write them. The console's text field lists `unit;name;language` per line
 * without a header. Either way one separator only, so that a name like «Muster, Anna» stays one
 * field. Name and language may be left out or empty (the language is then German).
 */
export function parseUnitsList(text: string, options: { header: boolean }): BatchUnit[] {
  let records: CsvRecord[];
  try {
    records = parseCsv(text, { delimiter: options.header ? headerDelimiterOf(text) : ';' });
  } catch (error) {
    if (error instanceof CsvError)
      throw new UnitsListProblem('not_csv', `not readable as CSV: ${error.message}`);
    throw error;
  }
  let columns: Column[] = [...COLUMNS];
  if (options.header) {
    const header = records.shift();
    if (!header)
      throw new UnitsListProblem(
        'no_header',
        'is empty; its first line names the columns unit,name,language.',
      );
    columns = columnsOf(header);
  }
  if (records.length === 0) throw new UnitsListProblem('no_units', 'lists no units.');
  if (records.length > MAX_UNITS_PER_BATCH) {
    throw new UnitsListProblem(
      'too_many_units',
      `lists ${records.length} units; a batch has at most ${MAX_UNITS_PER_BATCH}.`,
    );
  }
  const lineOfUnit = new Map<string, number>();
  return records.map(({ line, fields }) => {
    const fail = (code: UnitsListProblem['code'], message: string) =>
      new UnitsListProblem(code, message, line);
    // Without a header, trailing fields may be left out.
    if (options.header ? fields.length !== columns.length : fields.length > columns.length) {
      throw fail('field_count', `${fields.length} fields, there are ${columns.length} columns.`);
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
        throw fail(
          'bad_language',
          `the language "${value('language')}" is not one of ${LANGUAGES.join(', ')}.`,
        );
      }
      if (field === 'name') throw fail('bad_name', `the name has more than ${NAME_MAX_LENGTH} characters.`);
      throw fail('bad_unit', `the unit must have 1 to ${UNIT_MAX_LENGTH} characters.`);
    }
    const earlier = lineOfUnit.get(parsed.data.unit);
    if (earlier !== undefined)
      throw fail('unit_twice', `the unit "${parsed.data.unit}" is on line ${earlier} already.`);
    lineOfUnit.set(parsed.data.unit, line);
    return parsed.data;
  });
}

/** The header line's separator: a semicolon when it has one, else a comma. */
function headerDelimiterOf(text: string): ',' | ';' {
  const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  return firstLine.includes(';') ? ';' : ',';
}

function columnsOf(header: CsvRecord): Column[] {
  const names = header.fields.map((name) => name.trim().toLowerCase());
  const fail = (message: string) => new UnitsListProblem('unknown_column', message, header.line);
  for (const name of names) {
    if (!(COLUMNS as readonly string[]).includes(name)) {
      throw fail(`unknown column "${name}"; the columns are unit,name,language.`);
    }
  }
  if (!names.includes('unit')) throw fail('no column "unit".');
  if (new Set(names).size !== names.length) throw fail('a column is named twice.');
  return names as Column[];
}
