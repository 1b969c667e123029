import { access, writeFile } from 'node:fs/promises';
import { CliError } from './cli-error';

// What the commands share: where their output goes, their tables, query strings and CSV files.

export interface CliOutput {
  /** Results: what a script would read or redirect. */
  out(text: string): void;
  /** Progress and summaries for the person at the terminal. */
  info(text: string): void;
}

export function query(values: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values))
    if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Columns padded to their widest cell: readable in a terminal, still one row per line for grep. */
export function table(header: string[], rows: string[][]): string {
  if (rows.length === 0) return '';
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (row: string[]) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  return `${[header, ...rows].map(line).join('\n')}\n`;
}

/** Checked before codes are made: a file in the way must not leave codes nobody has seen. */
export async function ensureNewFile(file: string | undefined): Promise<void> {
  if (file && (await exists(file))) throw new CliError(`${file} exists already; name a new file.`, 2);
}

/**
 * The CSV into a new file, or to standard output without one. When the file cannot be written, the
 * CSV is printed instead (`done` says what exists now, e.g. the codes just made): shown, not lost.
 */
export async function writeCsv(
  output: CliOutput,
  csv: string,
  file: string | undefined,
  done: string,
): Promise<void> {
  if (!file) {
    output.out(csv);
    return;
  }
  try {
    await writeFile(file, csv, { flag: 'wx' });
  } catch (error) {
    output.out(csv);
    throw new CliError(
      `${done}, but writing ${file} failed (${(error as Error).message}); printed above.`,
      1,
    );
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}
