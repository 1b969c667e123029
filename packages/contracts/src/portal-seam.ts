import type { Language } from './language';
import type { FormOutcome } from './portal-forms';
import type { RuntimeConfig } from './runtime-config';
import type { PageSignInRequest, TenantInfo } from './sign-in-request';
import type { PortalTenant } from './tenant';

// The seam between the server and the portal's server bundle (apps/portal/src/entry-server.tsx):
// the server loads the built bundle at run time and never imports portal code, so the types it
// relies on live here, and the portal checks its bundle against them (src/entry-server.seam.ts).

/**
 * What the server inlines into every page (as a JSON data block, not a script — the CSP allows no other
 * inline script) so that the browser hydrates with the same configuration and language. `Messages`
 * is the portal's dictionary type; the server passes the texts along without looking into them.
 */
export interface PortalPageState<Messages = unknown> {
  config: RuntimeConfig;
  /** The tenant from the registry: brand, customer host and behaviour flags. */
  tenant: PortalTenant;
  language: Language;
  /** The texts of this page (`common` and the route's parts); others are fetched when needed. */
  messages: Messages;
  /**
   * The sign-in request the server checked or obtained for the page (pages that need one); absent
   * when it could not, and `notice` then says why where the tenant can do something about it.
   */
  signInRequest?: PageSignInRequest;
  /** Said above the page whatever it shows: the provider is away, or this address asked too often. */
  notice?: PageNotice;
  /** spec §3: the provider's tenant info, as the server last read it. */
  tenantInfo?: TenantInfo;
  /** A form posted to the page without JavaScript, and what the server did with it (issue 25). */
  form?: FormOutcome;
  /** The token the page's form sends along, checked against its cookie (pages with a form). */
  formToken?: string;
}

export type PageNotice = 'provider_unreachable' | 'too_many_requests';

/** One route of the portal that the server renders (spec §2). */
export interface PortalPageRoute {
  path: string;
  /** The page module as the client build's manifest names it, for the server's modulepreload links. */
  source: string;
  /**
   * spec §2: whether the page works with a sign-in request (the server renders it with one, the
   * browser gets one when it has none). The pages reached from an e-mail work without and never
   * send the visitor away for one.
   */
  needsSignInRequest: boolean;
}

export interface RenderedPage {
  html: string;
  title: string;
  /**
   * The tenant theme's CSS variables and Mantine's global classes as `<style>` elements for the
   * head, after the stylesheets: the same for every page of a tenant, so made once, not per render.
   */
  headStyles: string;
  /** The page module (a key of the client manifest), for the server to preload its chunk. */
  pageSource: string;
  isNotFound: boolean;
}

/** What the portal's server bundle exports. Properties, not methods, so that parameters are checked strictly. */
export interface PortalServerBundle<Messages = unknown> {
  /** Every page the server answers for, exactly: the server registers these paths and no others. */
  routes: readonly PortalPageRoute[];
  /** Settles once every page module is loaded; renderPage needs no further import after it. */
  pagesReady: () => Promise<unknown>;
  /** Renders one page for a URL (path and query) in the given state. */
  renderPage: (url: string, state: PortalPageState<Messages>) => Promise<RenderedPage>;
  /** The texts one page needs (`common` and the route's parts), inlined into it. */
  messagesFor: (pathname: string, language: Language) => Messages;
  /** Named parts of a dictionary, for a page reached in the browser; null when a name is unknown. */
  messageParts: (language: Language, names: string[]) => Messages | null;
  /** spec §2: whether the page at this path works with a sign-in request. */
  needsSignInRequest: (pathname: string) => boolean;
  /** Where a URL must go before it renders (a 302), or null. */
  pageRedirect: (pathname: string, search: string) => string | null;
  /** The state as the JSON data block's text (safe inside <script type="application/json">). */
  serialisePageState: (state: PortalPageState<Messages>) => string;
  /** The id of that data block. */
  PAGE_STATE_ELEMENT_ID: string;
}
