import './app/styles';
import { type ReactNode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/App';
import { Root } from './app/Root';
import { matchPageRoute } from './app/routes';
import { PAGE_STATE_ELEMENT_ID, type PageState } from './page-state';

function app(state: PageState, themeStylesInHead: boolean): ReactNode {
  return (
    <Root state={state} themeStylesInHead={themeStylesInHead}>
      <App />
    </Root>
  );
}

/**
 * spec §2: the runtime configuration comes first. The server inlines it (with the tenant and the
 * language) into every page it renders; a page that arrives without it, such as a cached copy,
 * shows a spinner while the same state is fetched.
 */
async function boot() {
  const container = document.getElementById('root')!;
  await matchPageRoute(window.location.pathname).page.preload();
  const inlined = document.getElementById(PAGE_STATE_ELEMENT_ID)?.textContent;
  if (inlined) {
    // As a transition, hydration yields to the browser every few milliseconds instead of holding
    // the main thread for the whole page at once: on a slow phone a tap or a keystroke meanwhile is
    // answered at once (Lighthouse's total blocking time). The page is usable meanwhile anyway.
    startTransition(() => {
      hydrateRoot(container, app(JSON.parse(inlined) as PageState, true));
    });
    return;
  }
  const root = createRoot(container);
  root.render(<div className="boot-spinner" role="progressbar" aria-busy="true" />);
  const query = new URLSearchParams(window.location.search);
  query.set('path', window.location.pathname);
  const response = await fetch(`/page-state.json?${query}`, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`/page-state.json: HTTP ${response.status}`);
  root.render(app((await response.json()) as PageState, false));
}

void boot();
