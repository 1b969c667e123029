import { LANGUAGES, type Language } from '@concierge/contracts';
import { Anchor, Group } from '@mantine/core';
import { useLocation, useSearch } from 'wouter';
import { ownPathOf } from '../app/routes';
import { useTranslation } from '../i18n/use-translation';

/** Each language in its own name: a tenant finds theirs whatever language the page is in. */
const LANGUAGE_NAMES: Record<Language, string> = {
  de: 'Deutsch',
  fr: 'Français',
  it: 'Italiano',
  en: 'English',
};

/**
 * The four languages on every page, for a tenant whose browser speaks another. A link loads the
 * same page with `lang` (cidaas's own hosted-page parameter) and the rest of the query, so a message
 * shown (`error`) is shown again in the language chosen. The page is the route the address matched
 * (the not-found page's links go to /login): the address's own path may be `//evil.example/login`,
 * which a browser reads as another site.
 */
export function LanguageSwitcher() {
  const { t, language: pageLanguage } = useTranslation();
  const [pathname] = useLocation();
  const path = ownPathOf(pathname);
  const search = useSearch();
  const hrefFor = (language: Language) => {
    const query = new URLSearchParams(search);
    // The provider's own description is never shown (spec §8), so it need not travel either.
    query.delete('error_description');
    query.set('lang', language);
    return `${path}?${query}`;
  };
  return (
    <nav aria-label={t('common.languages')} className="language-switcher">
      <Group gap="md" justify="flex-end" wrap="wrap">
        {LANGUAGES.map((language) =>
          language === pageLanguage ? (
            <span key={language} lang={language} aria-current="true" className="language-current">
              {LANGUAGE_NAMES[language]}
            </span>
          ) : (
            <Anchor key={language} href={hrefFor(language)} lang={language} hrefLang={language}>
              {LANGUAGE_NAMES[language]}
            </Anchor>
          ),
        )}
      </Group>
    </nav>
  );
}
