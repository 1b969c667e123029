import './app/styles';
import { pickLanguage, type RuntimeConfig } from '@concierge/contracts';
import type { ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app/App';
import { Root } from './app/Root';
import { matchPageRoute } from './app/routes';
import type { Messages } from './i18n/resources';
import { PAGE_STATE_ELEMENT_ID, type PageState } from './page-state';

function app(state: PageState): ReactNode {
  return (
    <Root state={state}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </Root>
  );
}

async function fetchJson<T>(path: string): Promise<T> {
  const response = await fetch(path, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

/**
 * spec §2: the runtime configuration comes first. The server inlines it into every page it renders;
 * a page that arrives without it (a cached or hand-made copy) shows a spinner while it is fetched.
 */
async function boot() {
  const container = document.getElementById('root')!;
  await matchPageRoute(window.location.pathname).page.preload();
  const inlined = document.getElementById(PAGE_STATE_ELEMENT_ID)?.textContent;
  if (inlined) {
    hydrateRoot(container, app(JSON.parse(inlined) as PageState));
    return;
  }
  const root = createRoot(container);
  root.render(<div className="boot-spinner" role="progressbar" aria-busy="true" />);
  const language = pickLanguage(navigator.languages.join(','));
  const [config, messages] = await Promise.all([
    fetchJson<RuntimeConfig>('/config.json'),
    fetchJson<Messages>(`/locales/${language}.json`),
  ]);
  root.render(app({ config, language, messages }));
}

void boot();
