import { LANGUAGES } from '@concierge/contracts';
import { describe, expect, it } from 'vitest';
import { MAIL_TEXTS } from './mail-texts';

function entries(value: unknown, prefix = ''): [string, string][] {
  if (typeof value === 'string') return [[prefix, value]];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, inner]) =>
    entries(inner, prefix ? `${prefix}.${key}` : key),
  );
}
const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();

describe('the e-mail texts', () => {
  const german = new Map(entries(MAIL_TEXTS.de));

  it.each(LANGUAGES)('%s has the same keys and placeholders as German, and no empty text', (language) => {
    const texts = new Map(entries(MAIL_TEXTS[language]));
    expect([...texts.keys()].sort()).toEqual([...german.keys()].sort());
    for (const [key, text] of texts) {
      expect(text.trim(), key).not.toBe('');
      expect(placeholders(text), key).toEqual(placeholders(german.get(key)!));
    }
  });

  it('writes Swiss German: never ß', () => {
    expect(JSON.stringify(MAIL_TEXTS.de)).not.toContain('ß');
  });
});
