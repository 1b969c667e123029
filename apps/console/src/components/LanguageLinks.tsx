import type { Language } from '@concierge/contracts';
import { Anchor, Group } from '@mantine/core';
import { useConsoleState } from '../app/console-state-context';
import { withLanguage } from '../app/paths';
import { useTranslation } from '../i18n/use-translation';

/** Each language in its own name: someone finds theirs whatever language the page is in. */
const LANGUAGE_NAMES: Record<Language, string> = {
  de: 'Deutsch',
  fr: 'Français',
  it: 'Italiano',
  en: 'English',
};

const LANGUAGE_ORDER: readonly Language[] = ['de', 'fr', 'it', 'en'];

/** The same page in the other languages (the server keeps the choice for the session). */
export function LanguageLinks() {
  const { t, language: pageLanguage } = useTranslation();
  const { url } = useConsoleState();
  return (
    <nav aria-label={t('common.languages')}>
      <Group gap="md" wrap="wrap">
        {LANGUAGE_ORDER.map((language) =>
          language === pageLanguage ? (
            <span key={language} lang={language} aria-current="true" className="language-current">
              {LANGUAGE_NAMES[language]}
            </span>
          ) : (
            <Anchor key={language} href={withLanguage(url, language)} lang={language} hrefLang={language}>
              {LANGUAGE_NAMES[language]}
            </Anchor>
          ),
        )}
      </Group>
    </nav>
  );
}
