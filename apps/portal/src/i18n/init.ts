import type { Language } from '@concierge/contracts';
import { createInstance, type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Messages } from './resources';

declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: Messages };
  }
}

/**
 * One i18next instance per render: the server makes one per request, the browser one at boot, each
 * holding the single language the page is in (chosen by the server from Accept-Language).
 */
export function createI18n(language: Language, messages: Partial<Messages>): i18n {
  const instance = createInstance();
  void instance.use(initReactI18next).init({
    lng: language,
    resources: { [language]: { translation: messages } },
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return instance;
}
