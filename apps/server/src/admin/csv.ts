// The admin API's CSV (RFC 4180): the codes the CLI writes for letters, a batch's export, and the
// units an office's file lists. Written by the server and the CLI, read by the CLI and the tests.

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
  /** The line of the file the record starts on, from 1: what an error names. */
  line: number;
  fields: string[];
}

export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

/**
 * Records of a CSV text: quoted fields may hold commas, doubled quotes and line breaks; CRLF or LF;
 * a byte-order mark (as spreadsheets write one) and blank lines are skipped.
 */
export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let isQuoted = false;
  let quoteLine = 0;
  const endField = () => {
    fields.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    if (fields.length > 1 || fields[0] !== '') records.push({ line: recordLine, fields });
    fields = [];
  };
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  for (let index = 0; index < source.length; index += 1) {
    const char = source[index]!;
    if (isQuoted) {
      if (char === '"' && source[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') {
        isQuoted = false;
      } else {
        if (char === '\n') line += 1;
        field += char;
      }
    } else if (char === '"' && field === '') {
      isQuoted = true;
      quoteLine = line;
    } else if (char === ',') {
      endField();
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && source[index + 1] === '\n') index += 1;
      endRecord();
      line += 1;
      recordLine = line;
    } else {
      field += char;
    }
  }
  if (isQuoted) throw new CsvSyntaxError(quoteLine, 'a quoted field is not closed');
  if (field !== '' || fields.length > 0) endRecord();
  return records;
}
