import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { App } from './app/App';
import { Root } from './app/Root';
import { matchPageRoute, notFoundRoute, pageRoutes } from './app/routes';
import { createI18n } from './i18n/init';
import type { PageState } from './page-state';

export { pageRedirect } from './app/page-redirects';
export { locales } from './i18n/resources';
export { PAGE_STATE_ELEMENT_ID, type PageState, serialisePageState } from './page-state';

export interface RenderedPage {
  html: string;
  title: string;
  /** The page module, for the server to preload its chunk from the client manifest. */
  pageSource: string;
  isNotFound: boolean;
}

const pagesLoaded = Promise.all([...pageRoutes, notFoundRoute].map((route) => route.page.preload()));

/** Renders one page for a URL (path and query) in the given state; every page is loaded first. */
export async function renderPage(url: string, state: PageState): Promise<RenderedPage> {
  await pagesLoaded;
  const route = matchPageRoute(new URL(url, 'http://portal.invalid').pathname);
  const html = renderToString(
    <Root state={state}>
      <StaticRouter location={url}>
        <App />
      </StaticRouter>
    </Root>,
  );
  const t = createI18n(state.language, state.messages).t;
  const title = t(route.titleKey);
  return { html, title, pageSource: route.source, isNotFound: route === notFoundRoute };
}
