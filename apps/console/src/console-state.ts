import type { ConsolePageState } from '@concierge/contracts';

/** The element the server puts the page's state in, and the script reads it from. */
export const CONSOLE_STATE_ELEMENT_ID = 'concierge-console-state';

/** JSON inside <script type="application/json">: "<" escaped so the data cannot close the element. */
export function serialiseConsoleState(state: ConsolePageState): string {
  return JSON.stringify(state)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The state a console page carries, read from an HTML document (the page now, or one fetched). */
export function readConsoleState(document: Document): ConsolePageState | null {
  const text = document.getElementById(CONSOLE_STATE_ELEMENT_ID)?.textContent;
  return text ? (JSON.parse(text) as ConsolePageState) : null;
}
