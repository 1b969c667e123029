import { describe, expect, it } from 'vitest';
import { parseUnitsList, type UnitsListProblem } from './units-list';

// The office's list of flats, typed into the console or exported from a spreadsheet: a name with a
// comma in it is one name, whichever way the list separates its fields.

describe('a list of units', () => {
  it('keeps «Muster, Anna» whole in a typed list and in a file separated by semicolons', () => {
    const typed = parseUnitsList('1.01;Muster, Anna;fr\n1.02', { header: false });
    expect(typed).toEqual([
      { unit: '1.01', name: 'Muster, Anna', language: 'fr' },
      { unit: '1.02', language: 'de' },
    ]);
    const file = parseUnitsList('\uFEFFunit;name;language\r\n1.01;Muster, Anna;fr\r\n', { header: true });
    expect(file).toEqual([{ unit: '1.01', name: 'Muster, Anna', language: 'fr' }]);
    const commas = parseUnitsList('unit,name\n1.01,"Muster, Anna"\n', { header: true });
    expect(commas).toEqual([{ unit: '1.01', name: 'Muster, Anna', language: 'de' }]);
  });

  it('names the line of a bad row', () => {
    expect(() => parseUnitsList('1;Eva;de\n2;Paul;es', { header: false })).toThrow(
      expect.objectContaining({ code: 'bad_language', line: 2 }) as UnitsListProblem,
    );
  });
});
