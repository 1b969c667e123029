import type { ConsolePageState, RenderedConsolePage } from '@concierge/contracts';
import { renderToString } from 'react-dom/server';
import { ConsoleApp } from './app/ConsoleApp';
import { consoleHeadStyles } from './app/head-styles';
import { documentTitle } from './app/page-title';
import { Root } from './app/Root';
import { locales } from './i18n/resources';
import { createTranslator } from './i18n/translator';

export { CONSOLE_STATE_ELEMENT_ID, serialiseConsoleState } from './console-state';

// What this bundle exports is the seam the server relies on: ConsoleServerBundle in
// @concierge/contracts, checked in entry-server.seam.ts.

/** One console page for the state the server made: its markup, its title and the head's styles. */
export function renderConsolePage(state: ConsolePageState): RenderedConsolePage {
  const messages = locales[state.language];
  const html = renderToString(
    <Root state={state} messages={messages}>
      <ConsoleApp />
    </Root>,
  );
  return {
    html,
    title: documentTitle(state, createTranslator(state.language, messages)),
    headStyles: consoleHeadStyles(),
    htmlAttributes: { 'data-mantine-color-scheme': 'light' },
  };
}
