import type { PortalPageState } from '@concierge/contracts';
import type { Messages } from './i18n/resources';

/** The state every page is rendered and hydrated with (the seam's PortalPageState, with the portal's texts). */
export type PageState = PortalPageState<Partial<Messages>>;

export const PAGE_STATE_ELEMENT_ID = 'concierge-state';

/** JSON inside <script type="application/json">: "<" escaped so the data cannot close the element. */
export function serialisePageState(state: PageState): string {
  return JSON.stringify(state)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
