import type { Language, PageSignInRequest } from '@concierge/contracts';
import { render } from '@testing-library/react';
import { Router, useLocation, useSearch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { App } from '../app/App';
import { Root } from '../app/Root';
import { matchPageRoute, pathnameOf } from '../app/routes';
import { locales } from '../i18n/resources';
import { testConfig, testTenant } from './fixtures';

/** Where the router is now: what the address bar would show (path and query). */
function LocationProbe({ onLocation }: { onLocation: (url: string) => void }) {
  const [pathname] = useLocation();
  const search = useSearch();
  onLocation(search ? `${pathname}?${search}` : pathname);
  return null;
}

/**
 * Renders the whole app at a URL, in a language, the way the server and the browser do; with
 * `signInRequest`, as the server renders a page whose request it checked.
 */
export async function renderPage(
  url: string,
  language: Language = 'en',
  tenant = testTenant,
  signInRequest?: PageSignInRequest,
) {
  await matchPageRoute(pathnameOf(url)).page.preload();
  let current = url;
  const rendered = render(
    <Root
      state={{ config: testConfig, tenant, language, messages: locales[language], signInRequest }}
      themeStylesInHead={false}
    >
      <Router hook={memoryLocation({ path: url }).hook}>
        <App />
        <LocationProbe
          onLocation={(location) => {
            current = location;
          }}
        />
      </Router>
    </Root>,
  );
  return { ...rendered, currentUrl: () => current };
}
