import { readFile } from 'node:fs/promises';
import { type BatchUnit, parseUnitsList, UnitsListProblem } from '../admin/units-list';
import { CliError } from './cli-error';

/** An office's units file (CSV, header `unit,name,language`), checked before anything is made. */
export async function readUnitsFile(file: string): Promise<BatchUnit[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new CliError(`${file}: cannot be read (${(error as Error).message}).`, 2);
  }
  try {
    return parseUnitsList(text, { header: true });
  } catch (error) {
    if (error instanceof UnitsListProblem) throw new CliError(`${file}: ${error.message}`, 2);
    throw error;
  }
}
