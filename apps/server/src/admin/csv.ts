// The admin API's CSV (RFC 4180): the codes the CLI writes for letters, a batch's export, and the
// units an office's file lists. Written by the server and the CLI, read by the CLI and the tests.
import { type InfoRecord, parse } from 'csv-parse/sync';

/**
 * What a spreadsheet would run as a formula (OWASP, "CSV injection"): a field starting with = or @,
 * a tab or a carriage return, or with + or - and not a plain number. A tenant chooses the e-mail a
 * batch's export shows, and `=HYPERLINK(…)@example.ch` is an address the spec's pattern accepts.
 */
const FORMULA = /^(?:[=@\t\r]|[+-](?![\d.,]+$))/;

/**
 * A field with a comma, quote or line break is quoted, quotes doubled; one a spreadsheet would run
 * as a formula starts with an apostrophe, which spreadsheets show as text. CRLF line ends.
 */
export function toCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const field = (raw: string) => {
    const value = FORMULA.test(raw) ? `'${raw}` : raw;
    return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
  };
  const lines = [header, ...rows].map((row) => row.map(field).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

export interface CsvRecord {
  /** The line of the file the record ends on, from 1: what an error names. */
  line: number;
  fields: string[];
}

/**
 * Records of a CSV text (csv-parse): quoted fields may hold commas, doubled quotes and line breaks;
 * CRLF or LF; a byte-order mark (as spreadsheets write one) and blank lines are skipped. A record
 * may have another number of fields than the header: the caller names the line. Malformed text
 * (a quote left open) throws csv-parse's error, which names its line.
 */
export function parseCsv(text: string, options: { delimiter?: ',' | ';' } = {}): CsvRecord[] {
  // With `info`, each record comes with where it was read; csv-parse's types do not follow it.
  const rows = parse(text, {
    bom: true,
    delimiter: options.delimiter ?? ',',
    skip_empty_lines: true,
    relax_column_count: true,
    info: true,
  }) as unknown as { record: string[]; info: InfoRecord }[];
  return rows.map(({ record, info }) => ({ line: info.lines, fields: record }));
}

export { CsvError } from 'csv-parse/sync';
