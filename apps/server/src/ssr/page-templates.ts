import type { PortalPageState } from '@concierge/contracts';

/**
 * What tenants arrive at is mostly the same page: cidaas sends every visitor of a tenant to
 * `/login?subdomain=…&groupname=default&lang=&view_type=login&requestId=…`, and the pages differ
 * only by the request id. Rendering React and Mantine for each costs milliseconds of CPU;
 * so a page is rendered once with a stand-in for the request id, kept, and every later arrival gets
 * that page with its own request id put in — a string replacement.
 *
 * The stand-in is letters and digits, which every encoding on the page (HTML text and attributes,
 * the query of a link, the JSON of the page state) leaves as it is. Only request ids that those
 * encodings leave as they are too take this way (a `~` would be `%7E` in a link's query); any other
 * page is rendered as it is. That the two ways give the same page is tested
 * (page-templates.test.ts), for every page.
 */
export const REQUEST_ID_STAND_IN = 'StandInForTheRequestId0c0nc1erge';
const REPLACEABLE_REQUEST_ID = /^[A-Za-z0-9._-]{1,200}$/;
/** Pages kept; the oldest goes first. A page is a few dozen KiB, with its key. */
const KEPT_PAGES = 200;

export interface PageTemplate {
  /** The URL to render, with the stand-in for the request id. */
  url: string;
  /** The state to render with, with the stand-in for the request id. */
  state: PortalPageState;
  /** The real request id, for the stand-in. */
  requestId: string;
}

/**
 * The page as it is rendered with a stand-in, or undefined when the URL has no request id that can
 * be put in afterwards (or has it in a form the query does not take literally, e.g. twice or
 * percent-encoded).
 */
export function pageTemplateFor(url: string, state: PortalPageState): PageTemplate | undefined {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return undefined;
  const pairs = url.slice(queryStart + 1).split('&');
  const requestIdPairs = pairs.filter((pair) => pair.startsWith('requestId='));
  if (requestIdPairs.length !== 1) return undefined;
  const requestId = requestIdPairs[0]!.slice('requestId='.length);
  if (!REPLACEABLE_REQUEST_ID.test(requestId)) return undefined;
  // The stand-in may stand only where the request id stood: a URL that carries it elsewhere (in a
  // `username`, say) would have that replaced too.
  if (url.includes(REQUEST_ID_STAND_IN)) return undefined;
  const query = pairs.map((pair) =>
    pair.startsWith('requestId=') ? `requestId=${REQUEST_ID_STAND_IN}` : pair,
  );
  const { signInRequest } = state;
  if (signInRequest && signInRequest.requestId !== requestId) return undefined;
  return {
    url: `${url.slice(0, queryStart)}?${query.join('&')}`,
    state: signInRequest
      ? { ...state, signInRequest: { ...signInRequest, requestId: REQUEST_ID_STAND_IN } }
      : state,
    requestId,
  };
}

export interface KeptPage {
  status: number;
  html: string;
}

/** The pages rendered with a stand-in, by everything they were rendered from. */
export class PageTemplates {
  readonly #pages = new Map<string, KeptPage>();

  /** `key` must name everything the page is made of: the URL and the whole state. */
  async page(key: string, render: () => Promise<KeptPage>): Promise<KeptPage> {
    const kept = this.#pages.get(key);
    if (kept) {
      // Most recently used last, so the first is the one to let go.
      this.#pages.delete(key);
      this.#pages.set(key, kept);
      return kept;
    }
    const page = await render();
    if (this.#pages.size >= KEPT_PAGES) this.#pages.delete(this.#pages.keys().next().value!);
    this.#pages.set(key, page);
    return page;
  }
}

/** The kept page with the request id in place of the stand-in. */
export const withRequestId = (html: string, requestId: string) =>
  html.replaceAll(REQUEST_ID_STAND_IN, requestId);
