import type { Language } from '@concierge/contracts';
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { locales } from '../i18n/resources';
import { createTranslator } from '../i18n/translator';
import { TranslatorProvider } from '../i18n/use-translation';
import { testConfig } from '../test/fixtures';
import { useDurations, useErrorText } from './durations';
import { RuntimeConfigProvider } from './runtime-config';

function inPage(language: Language, config = testConfig) {
  return ({ children }: { children: ReactNode }) => (
    <RuntimeConfigProvider config={config}>
      <TranslatorProvider translator={createTranslator(language, locales[language])}>
        {children}
      </TranslatorProvider>
    </RuntimeConfigProvider>
  );
}

describe('useDurations', () => {
  it('says the lifetimes the runtime configuration carries, in the page language', () => {
    const config = { ...testConfig, activationLinkLifetimeMinutes: 24 * 60, resetLinkLifetimeMinutes: 60 };
    expect(renderHook(useDurations, { wrapper: inPage('de', config) }).result.current).toEqual({
      activationLinkLifetime: '24 Stunden',
      resetLinkLifetime: '1 Stunde',
    });
    expect(renderHook(useDurations, { wrapper: inPage('it', testConfig) }).result.current).toEqual({
      activationLinkLifetime: '72 ore',
      resetLinkLifetime: '30 minuti',
    });
  });

  it('fills the success texts that say how long a link works', () => {
    const { result } = renderHook(
      () => {
        const { t } = createTranslator('fr', locales.fr);
        const durations = useDurations();
        return [
          t('register.success.text', { email: 'anna@example.ch', ...durations }),
          t('password_reset.init.success', durations),
        ];
      },
      { wrapper: inPage('fr') },
    );
    expect(result.current[0]).toContain('Le lien est valable 72 heures.');
    expect(result.current[1]).toContain('Ce lien est valable 30 minutes.');
    expect(result.current.join(' ')).not.toMatch(/\{\{|limitée/);
  });
});

describe('useErrorText', () => {
  it('says the real wait of a too_many_requests, rounded up to whole minutes', () => {
    const { result } = renderHook(useErrorText, { wrapper: inPage('de') });
    const errorText = result.current;
    expect(errorText('register.error.too_many_requests', 899)).toBe(
      'Zu viele Versuche. Bitte warten Sie 15 Minuten und versuchen Sie es dann erneut.',
    );
    expect(errorText('password_reset.reset.error.too_many_requests', 20)).toBe(
      'Zu viele Versuche. Bitte warten Sie 1 Minute und versuchen Sie es dann erneut.',
    );
    expect(errorText('verification.error.too_many_requests', 3600)).toContain('60 Minuten');
  });

  it('says "later" when the wait is unknown, never a number nothing enforces', () => {
    const { result } = renderHook(useErrorText, { wrapper: inPage('en') });
    expect(result.current('password_reset.init.error.too_many_requests')).toBe(
      'Too many attempts. Please try again later.',
    );
  });

  it('gives any other error its text as it is', () => {
    const { result } = renderHook(useErrorText, { wrapper: inPage('it') });
    expect(result.current('register.error.registration_error', 600)).toBe(
      createTranslator('it', locales.it).t('register.error.registration_error'),
    );
  });
});

describe('the texts that state a duration', () => {
  it('take it as a placeholder in every language: no "a few minutes", no "limited time"', () => {
    const vague =
      /einigen Minuten|nächsten Minuten|begrenzte Zeit|quelques minutes|prochaines minutes|durée limitée|qualche minut|prossimi minuti|tempo limitato|a few minutes|limited time/i;
    for (const language of ['de', 'fr', 'it', 'en'] as const) {
      const text = JSON.stringify(locales[language]);
      expect(text, language).not.toMatch(vague);
    }
  });
});
