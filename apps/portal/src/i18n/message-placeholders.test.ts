import { expect, it } from 'vitest';
import { locales } from './resources';
import { RULE_PLACEHOLDER_NAMES } from './translator';

/** Every text's dotted key and its text, in the dictionary's order. */
function flatten(node: object, prefix = ''): [string, string][] {
  return Object.entries(node).flatMap(([key, value]) =>
    typeof value === 'string'
      ? [[`${prefix}${key}`, value] as [string, string]]
      : flatten(value, `${prefix}${key}.`),
  );
}

// The translator's types come from here (translator.ts): a text whose placeholders change changes
// what its callers must pass, and the typecheck then names every caller that does not.
it('keeps message-placeholders.ts in step with the texts (`npx vitest run -u` on this file writes it)', async () => {
  const lines = flatten(locales.de).flatMap(([key, text]) => {
    const names = [...new Set([...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]!))].filter(
      (name) => !RULE_PLACEHOLDER_NAMES.includes(name),
    );
    return names.length > 0 ? [`  '${key}': ${names.map((name) => `'${name}'`).join(' | ')};`] : [];
  });
  const file = [
    '// The placeholders each text needs from its caller, read from the German texts (locales.test.ts',
    '// keeps the other languages to the same ones; the rules\u2019 limits the translator fills in itself).',
    '// Written by message-placeholders.test.ts: `npx vitest run -u src/i18n/message-placeholders.test.ts`.',
    'export interface MessagePlaceholders {',
    ...lines,
    '}',
    '',
  ].join('\n');
  await expect(file).toMatchFileSnapshot('./message-placeholders.ts');
});
