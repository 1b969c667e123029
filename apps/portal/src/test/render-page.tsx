import type { Language } from '@concierge/contracts';
import { render } from '@testing-library/react';
import { Router, useLocation, useSearch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { App } from '../app/App';
import { Root } from '../app/Root';
import { matchPageRoute, pathnameOf } from '../app/routes';
import type { RequestSeed } from '../app/sign-in-request/RequestContext';
import { locales } from '../i18n/resources';
import type { PageState } from '../page-state';
import { testConfig, testTenant } from './fixtures';
import { clientInfoAnswer } from './stub-fetch';

/** Where the router is now: what the address bar would show (path and query). */
function LocationProbe({ onLocation }: { onLocation: (url: string) => void }) {
  const [pathname] = useLocation();
  const search = useSearch();
  onLocation(search ? `${pathname}?${search}` : pathname);
  return null;
}

/**
 * What the server renders a page with by default: a page that needs a sign-in request gets the
 * address's request id, as checked, or a fresh one (ssr/page-state.ts).
 */
export function serverSeed(url: string): RequestSeed {
  // The server answers `/` with /login (spec §2).
  const path = pathnameOf(url) === '/' ? '/login' : pathnameOf(url);
  if (!matchPageRoute(path).needsSignInRequest) return {};
  const requestId = new URLSearchParams(url.split('?')[1] ?? '').get('requestId') || 'fresh-request';
  return { signInRequest: { requestId, clientInfo: clientInfoAnswer().data } };
}

/**
 * Renders the whole app at a URL, in a language, the way the server and the browser do; `seed` is
 * what the server rendered it with (by default, a page that needs one gets its sign-in request),
 * with `form` what it said of a form posted to the page or of the address on arrival.
 */
export async function renderPage(
  url: string,
  language: Language = 'en',
  tenant = testTenant,
  seed: RequestSeed & Pick<PageState, 'form'> = serverSeed(url),
) {
  await matchPageRoute(pathnameOf(url)).page.preload();
  let current = url;
  const rendered = render(
    <Root
      state={{ config: testConfig, tenant, language, messages: locales[language], ...seed }}
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
