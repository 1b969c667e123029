import { describe, expect, it } from 'vitest';
import { languageOfTag, pickLanguage } from './language';

describe('a language tag (the lang parameter)', () => {
  it.each([
    ['fr', 'fr'],
    ['FR', 'fr'],
    ['fr-CH', 'fr'],
    ['fr-ch', 'fr'],
    ['it_CH', 'it'],
    ['de-Latn-CH', 'de'],
    ['de-CH-1996', 'de'],
    ['EN-GB', 'en'],
    [' en ', 'en'],
  ] as const)('reads %s by its primary subtag as %s', (tag, language) => {
    expect(languageOfTag(tag)).toBe(language);
  });

  it.each([
    ['another language', 'es-CH'],
    ['a primary subtag that only starts like ours', 'fra'],
    ['empty, as cidaas sends it', ''],
    ['no tag at all', 'fr CH'],
    ['a tag with something after it', 'fr-CH;q=1'],
    ['nothing', undefined],
  ])('names none for %s', (_, tag) => {
    expect(languageOfTag(tag)).toBeUndefined();
  });
});

describe('the browser’s language (Accept-Language)', () => {
  it('takes the best-ranked language the portal speaks, by its primary subtag', () => {
    expect(pickLanguage('es-ES,fr-CH;q=0.9,en;q=0.8')).toBe('fr');
    expect(pickLanguage('en;q=0.5, IT-ch')).toBe('it');
    expect(pickLanguage('*, de;q=0.1')).toBe('de');
  });

  it('falls back to German', () => {
    expect(pickLanguage(undefined)).toBe('de');
    expect(pickLanguage('es-ES,pt;q=0.8')).toBe('de');
    expect(pickLanguage('fr;q=0')).toBe('de');
  });
});
