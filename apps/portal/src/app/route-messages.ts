import type { Language } from '@concierge/contracts';
import type { i18n } from 'i18next';
import { use } from 'react';
import { useTranslation } from 'react-i18next';
import { assignLocation } from '../hooks/browser-location';
import type { MessageNamespace } from './routes';

const loading = new Map<string, Promise<void>>();

/**
 * Makes sure a page's texts are there before it renders. The server inlines the texts of the page it
 * renders; moving to another page in the browser fetches that page's parts once. Should that fail,
 * a full load of the page gets them from the server instead.
 */
export function useRouteMessages(namespaces: readonly MessageNamespace[]): void {
  const { i18n } = useTranslation();
  const language = i18n.language as Language;
  const missing = namespaces.filter(
    (namespace) => i18n.getResource(language, 'translation', namespace) === undefined,
  );
  if (missing.length === 0) return;
  const key = `${language}:${missing.join(',')}`;
  let promise = loading.get(key);
  if (!promise) {
    promise = loadMessages(i18n, language, missing);
    loading.set(key, promise);
  }
  use(promise);
}

async function loadMessages(i18n: i18n, language: Language, namespaces: MessageNamespace[]): Promise<void> {
  try {
    const response = await fetch(`/messages/${language}?namespaces=${namespaces.join(',')}`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    i18n.addResourceBundle(language, 'translation', await response.json(), true, true);
  } catch {
    assignLocation(window.location.href);
    await new Promise<never>(() => {});
  }
}
