import { describe, expect, it } from 'vitest';
import { LANGUAGES, pickLanguage, TEXTS } from './texts';

describe('property portal texts', () => {
  const germanKeys = Object.keys(TEXTS.de).sort();

  it.each(LANGUAGES)('%s has every key, none empty', (language) => {
    expect(Object.keys(TEXTS[language]).sort()).toEqual(germanKeys);
    for (const value of Object.values(TEXTS[language])) expect(value.trim()).not.toBe('');
  });

  it('uses Swiss German spelling', () => {
    expect(Object.values(TEXTS.de).join(' ')).not.toContain('ß');
  });

  it('reduces the browser language to its base language, German as fallback', () => {
    expect(pickLanguage('fr-CH')).toBe('fr');
    expect(pickLanguage('IT')).toBe('it');
    expect(pickLanguage('en-US')).toBe('en');
    expect(pickLanguage('es-ES')).toBe('de');
    expect(pickLanguage(undefined)).toBe('de');
  });
});
