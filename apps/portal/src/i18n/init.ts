import type { Language } from '@concierge/contracts';
import { createInstance, type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Messages } from './resources';

declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: Messages };
  }
}

// The server renders many pages from the same few dictionaries; an instance per dictionary and
// language is made once and only read afterwards (rendering on the server never changes it).
const instances = new WeakMap<object, Map<Language, i18n>>();

/**
 * The i18next instance for a page: holding the single language the page is in (chosen by the server
 * from Accept-Language) and the page's texts. The browser makes one at boot.
 */
export function createI18n(language: Language, messages: Partial<Messages>): i18n {
  const byLanguage = instances.get(messages) ?? new Map<Language, i18n>();
  instances.set(messages, byLanguage);
  const existing = byLanguage.get(language);
  if (existing) return existing;
  const instance = createInstance();
  byLanguage.set(language, instance);
  void instance.use(initReactI18next).init({
    lng: language,
    resources: { [language]: { translation: messages } },
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return instance;
}
