import { use } from 'react';
import { assignLocation } from '../hooks/browser-location';
import type { Messages } from '../i18n/resources';
import type { MessageNamespace, Translator } from '../i18n/translator';
import { useTranslation } from '../i18n/use-translation';

const loading = new Map<string, Promise<void>>();

/**
 * Makes sure a page's texts are there before it renders. The server inlines the texts of the page it
 * renders; moving to another page in the browser fetches that page's parts once. Should that fail,
 * a full load of the page gets them from the server instead.
 */
export function useRouteMessages(namespaces: readonly MessageNamespace[]): void {
  const translator = useTranslation();
  const missing = namespaces.filter((namespace) => !translator.has(namespace));
  if (missing.length === 0) return;
  const key = `${translator.language}:${missing.join(',')}`;
  let promise = loading.get(key);
  if (!promise) {
    promise = loadMessages(translator, missing);
    loading.set(key, promise);
  }
  use(promise);
}

async function loadMessages(translator: Translator, namespaces: MessageNamespace[]): Promise<void> {
  try {
    const response = await fetch(`/messages/${translator.language}?namespaces=${namespaces.join(',')}`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    translator.add((await response.json()) as Partial<Messages>);
  } catch {
    assignLocation(window.location.href);
    await new Promise<never>(() => {});
  }
}
