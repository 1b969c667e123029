import { LANGUAGES } from '@concierge/contracts';
import { describe, expect, it } from 'vitest';
import { TEXTS } from './texts';

describe('inbox texts', () => {
  const germanKeys = Object.keys(TEXTS.de).sort();

  it.each(LANGUAGES)('%s has every key, none empty', (language) => {
    expect(Object.keys(TEXTS[language]).sort()).toEqual(germanKeys);
    for (const value of Object.values(TEXTS[language])) expect(value.trim()).not.toBe('');
  });

  it('uses Swiss German spelling', () => {
    expect(Object.values(TEXTS.de).join(' ')).not.toContain('ß');
  });
});
