import './app/styles';
import { hydrateRoot } from 'react-dom/client';
import { ConsoleApp } from './app/ConsoleApp';
import { Root } from './app/Root';
import { readConsoleState } from './console-state';
import { loadMessages } from './i18n/load-messages';

/**
 * The server rendered the page and put its state beside it; the script takes the page over for what
 * only it does (select all, confirm before revoking, the brand's live preview, the session notice).
 * Every form works before and without it.
 */
async function hydrate() {
  const state = readConsoleState(document);
  if (!state) return;
  const messages = await loadMessages(state.language);
  hydrateRoot(
    document.getElementById('root')!,
    <Root state={state} messages={messages}>
      <ConsoleApp />
    </Root>,
  );
}

void hydrate();
