import { describe, expect, it } from 'vitest';
import { formatLifetime, formatUnitCount, formatWait, waitMinutes } from './durations';
import { LANGUAGES } from './language';

const lifetimes = (minutes: number) => LANGUAGES.map((language) => formatLifetime(minutes, language));

describe('formatLifetime', () => {
  it('says a link lifetime in each language, singular and plural as the language has them', () => {
    expect(lifetimes(30)).toEqual(['30 Minuten', '30 minutes', '30 minutes', '30 minuti']);
    expect(lifetimes(60)).toEqual(['1 Stunde', '1 hour', '1 heure', '1 ora']);
    expect(lifetimes(24 * 60)).toEqual(['24 Stunden', '24 hours', '24 heures', '24 ore']);
    expect(lifetimes(72 * 60)).toEqual(['72 Stunden', '72 hours', '72 heures', '72 ore']);
    expect(lifetimes(7 * 24 * 60)).toEqual(['7 Tage', '7 days', '7 jours', '7 giorni']);
  });

  it('never rounds: what is not a whole hour or day stays in the smaller unit', () => {
    expect(formatLifetime(90, 'de')).toBe('90 Minuten');
    expect(formatLifetime(100 * 60, 'en')).toBe('100 hours');
    expect(formatLifetime(36 * 60, 'de')).toBe('36 Stunden');
    expect(formatLifetime(25 * 60, 'it')).toBe('25 ore');
    expect(formatLifetime(1, 'fr')).toBe('1 minute');
  });
});

describe('formatWait', () => {
  it('rounds a Retry-After up to whole minutes, at least one', () => {
    expect(waitMinutes(0)).toBe(1);
    expect(waitMinutes(1)).toBe(1);
    expect(waitMinutes(60)).toBe(1);
    expect(waitMinutes(61)).toBe(2);
    expect(waitMinutes(899)).toBe(15);
    expect(formatWait(899, 'de')).toBe('15 Minuten');
    expect(formatWait(30, 'de')).toBe('1 Minute');
    expect(formatWait(3600, 'it')).toBe('60 minuti');
  });
});

describe('the unit words', () => {
  it('are the words CLDR has (Intl.NumberFormat), with a plain space', () => {
    const locales = { de: 'de-CH', fr: 'fr-CH', it: 'it-CH', en: 'en-GB' } as const;
    const spaced = (text: string) => text.replace(/\s/g, ' ');
    for (const language of LANGUAGES) {
      for (const unit of ['minute', 'hour', 'day'] as const) {
        for (const count of [1, 2, 15, 24, 30]) {
          const intl = new Intl.NumberFormat(locales[language], { style: 'unit', unit, unitDisplay: 'long' });
          const ours = formatUnitCount(count, unit, language);
          expect(ours).toMatch(/^\d+ \S+$/);
          expect(spaced(ours)).toBe(spaced(intl.format(count)));
        }
      }
    }
  });
});
