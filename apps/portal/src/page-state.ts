import type { Language, PortalTenant, RuntimeConfig } from '@concierge/contracts';
import type { Messages } from './i18n/resources';

/**
 * What the server inlines into every page (as a JSON data block, not a script — the CSP allows no
 * inline script) so that the browser hydrates with the same configuration and language.
 */
export interface PageState {
  config: RuntimeConfig;
  /** The tenant from the registry: brand, customer host and behaviour flags. */
  tenant: PortalTenant;
  language: Language;
  /** The texts of this page (`common` and the route's parts); others are fetched when needed. */
  messages: Partial<Messages>;
}

export const PAGE_STATE_ELEMENT_ID = 'concierge-state';

/** JSON inside <script type="application/json">: "<" escaped so the data cannot close the element. */
export function serialisePageState(state: PageState): string {
  return JSON.stringify(state)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
