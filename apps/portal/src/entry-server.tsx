import type { Language, PortalPageRoute, RenderedPage } from '@concierge/contracts';
import { renderToString } from 'react-dom/server';
import { Router } from 'wouter';
import { App } from './app/App';
import { documentTitle, htmlShowsError } from './app/document-title';
import { Root } from './app/Root';
import { matchPageRoute, notFoundRoute, pageRoutes, pathnameOf } from './app/routes';
import { themeStyles } from './brand/theme-styles';
import { locales, type Messages } from './i18n/resources';
import { createTranslator } from './i18n/translator';
import type { PageState } from './page-state';

export { pageRedirect } from './app/page-redirects';
export { locales } from './i18n/resources';

export { PAGE_STATE_ELEMENT_ID, type PageState, serialisePageState } from './page-state';

// What this bundle exports is the seam the server relies on: PortalServerBundle in
// @concierge/contracts, checked in entry-server.seam.ts.

/** spec §2: the pages the server answers for (the not-found page answers every other path). */
export const routes: readonly PortalPageRoute[] = pageRoutes.map(({ path, source, needsSignInRequest }) => ({
  path,
  source,
  needsSignInRequest,
}));

/** The texts a page needs: `common` and the route's own parts (spec routes in app/routes.ts). */
export function messagesFor(pathname: string, language: Language): Partial<Messages> {
  const route = matchPageRoute(pathname);
  const key = `${route.path}:${language}`;
  let messages = messagesByRoute.get(key);
  if (!messages) {
    const all = locales[language];
    const parts = ['common', ...route.messages] as const;
    messages = Object.fromEntries(parts.map((part) => [part, all[part]])) as Partial<Messages>;
    messagesByRoute.set(key, messages);
  }
  return messages;
}

// One object per route and language: the dictionaries are made once, not for every page.
const messagesByRoute = new Map<string, Partial<Messages>>();

/** Parts of the dictionary by name, for a page reached by navigation in the browser; null for an unknown part. */
export function messageParts(language: Language, names: string[]): Partial<Messages> | null {
  const all = locales[language];
  if (!names.every((name) => Object.hasOwn(all, name))) return null;
  return Object.fromEntries(names.map((name) => [name, all[name as keyof Messages]])) as Partial<Messages>;
}

const pagesLoaded = Promise.all([...pageRoutes, notFoundRoute].map((route) => route.page.preload()));

/** Settles once every page's module is loaded: the server waits for it before it serves. */
export function pagesReady(): Promise<unknown> {
  return pagesLoaded;
}

/** spec §2: whether the page at this path works with a sign-in request (the server renders it with one). */
export function needsSignInRequest(pathname: string): boolean {
  return matchPageRoute(pathname).needsSignInRequest;
}

/** Renders one page for a URL (path and query) in the given state; every page is loaded first. */
export async function renderPage(url: string, state: PageState): Promise<RenderedPage> {
  await pagesLoaded;
  const route = matchPageRoute(pathnameOf(url));
  const html = renderToString(
    <Root state={state} themeStylesInHead>
      <Router ssrPath={url}>
        <App />
      </Router>
    </Root>,
  );
  const { t } = createTranslator(state.language, state.messages);
  const pageTitle = t(route.titleKey);
  // As in the browser (app/document-title.ts): while the page shows an error, the title says so;
  // the tenant's name follows.
  const title = documentTitle(
    htmlShowsError(html) ? t('common.errorTitle', { title: pageTitle }) : pageTitle,
    state.tenant.displayName,
  );
  return {
    html,
    title,
    headStyles: themeStyles(state.tenant.design),
    pageSource: route.source,
    isNotFound: route === notFoundRoute,
  };
}
