export const LANGUAGES = ['de', 'en', 'fr', 'it'] as const;
export type Language = (typeof LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = 'de';

export function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}

// A BCP-47 language tag as browsers, cidaas and people write it: a primary subtag of letters, then
// subtags of letters and digits (region, script, variant), each after a hyphen; Java's and POSIX's
// underscore too (fr_CH).
const LANGUAGE_TAG = /^([a-z]{2,3})(?:[-_][a-z0-9]{1,8})*$/i;

/**
 * The language a tag names when its primary subtag is one of ours, in any case: `fr-CH`, `FR`,
 * `it_ch`, `de-Latn-CH` and `en-GB` name fr, fr, it, de and en. Undefined for another language, an
 * empty value or anything that is no language tag.
 */
export function languageOfTag(tag: string | undefined | null): Language | undefined {
  const primary = LANGUAGE_TAG.exec(tag?.trim() ?? '')?.[1]?.toLowerCase();
  return primary !== undefined && isLanguage(primary) ? primary : undefined;
}

/**
 * spec §1: the browser language reduced to its base language, German as fallback.
 * Reads an Accept-Language header (or navigator.languages joined) by descending quality.
 */
export function pickLanguage(acceptLanguage: string | undefined | null): Language {
  if (!acceptLanguage) return FALLBACK_LANGUAGE;
  const ranked = acceptLanguage
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const qParam = params.find((param) => param.trim().startsWith('q='));
      const quality = qParam ? Number.parseFloat(qParam.trim().slice(2)) : 1;
      return { language: languageOfTag(tag), quality: Number.isNaN(quality) ? 0 : quality, index };
    })
    .filter((entry) => entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  return ranked.find((entry) => entry.language !== undefined)?.language ?? FALLBACK_LANGUAGE;
}
