import { CODE_STATES, CONSOLE_DONE, CONSOLE_ERROR_CODES, LANGUAGES } from '@concierge/contracts';
import { describe, expect, it } from 'vitest';
import { locales } from './resources';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string'
      ? [[prefix + key, value] as [string, string]]
      : flatten(value, `${prefix}${key}.`),
  );
}

const flat = Object.fromEntries(
  LANGUAGES.map((language) => [language, Object.fromEntries(flatten(locales[language]))]),
);
const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();

// The wording rules of every app's texts (docs/glossary.md) are checked for these files too, by the
// portal's terminology.test.ts, which reads every locales folder.
describe('console locales', () => {
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

  it('words every code state, success and error code the server reports', () => {
    for (const language of LANGUAGES) {
      for (const state of CODE_STATES) expect(flat[language]![`codeState.${state}`], state).toBeTruthy();
      for (const done of CONSOLE_DONE) expect(flat[language]![`done.${done}`], done).toBeTruthy();
      for (const code of CONSOLE_ERROR_CODES) expect(flat[language]![`error.${code}`], code).toBeTruthy();
    }
  });

  it('keeps message-placeholders.ts in step with the texts (`npx vitest run -u` on this file writes it)', async () => {
    const lines = flatten(locales.de).flatMap(([key, text]) => {
      const names = [...new Set(placeholders(text))];
      return names.length > 0 ? [`  '${key}': ${names.map((name) => `'${name}'`).join(' | ')};`] : [];
    });
    const file = [
      '// The placeholders each text needs from its caller, read from the German texts (locales.test.ts',
      '// keeps the other languages to the same ones). Written by locales.test.ts:',
      '// `npx vitest run apps/console/src/i18n/locales.test.ts --update`.',
      'export interface MessagePlaceholders {',
      ...lines,
      '}',
      '',
    ].join('\n');
    await expect(file).toMatchFileSnapshot('./message-placeholders.ts');
  });
});
