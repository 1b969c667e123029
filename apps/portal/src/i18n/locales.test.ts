import { LANGUAGES, LOGIN_ERROR_CODES } from '@concierge/contracts';
import { describe, expect, it } from 'vitest';
import { locales } from './resources';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Record<string, string> {
  return Object.fromEntries(
    Object.entries(tree).flatMap(([key, value]) =>
      typeof value === 'string'
        ? [[prefix + key, value]]
        : Object.entries(flatten(value, `${prefix}${key}.`)),
    ),
  );
}

const flat = Object.fromEntries(LANGUAGES.map((language) => [language, flatten(locales[language])]));
const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();

describe('locales', () => {
  it.each(LANGUAGES)(
    '%s has exactly the keys of German, none empty, with the same placeholders',
    (language) => {
      const german = flat.de!;
      const other = flat[language]!;
      expect(Object.keys(other).sort()).toEqual(Object.keys(german).sort());
      for (const [key, text] of Object.entries(other)) {
        expect(text.trim(), key).not.toBe('');
        expect(placeholders(text), key).toEqual(placeholders(german[key]!));
      }
    },
  );

  it('writes Swiss German: no sharp s', () => {
    for (const [key, text] of Object.entries(flat.de!)) expect(text, key).not.toContain('ß');
  });

  it('has a message for every login error code of the spec and the default', () => {
    for (const code of [...LOGIN_ERROR_CODES, 'default'])
      expect(flat.en![`login.error.${code}`], code).toBeTruthy();
  });
});
