import { normaliseRegistrationCode, type PortalPageState } from '@concierge/contracts';
import { GzipTemplate } from '../http/gzip-template';

/**
 * What tenants arrive at is mostly the same page: cidaas sends every visitor of a tenant to
 * `/login?subdomain=…&groupname=default&lang=&view_type=login&requestId=…`, and a paper letter's
 * link is `/register?subdomain=…&registrationcode=…`, for which the server obtains a fresh sign-in
 * request. The pages differ only by the request id and the letter's code. Rendering React and
 * Mantine for each costs milliseconds of CPU; so a page is rendered once with stand-ins for them,
 * kept, and every later arrival gets that page with its own values put in — string replacements.
 *
 * Each stand-in is a value that every encoding on the page (HTML text and attributes, the query of a
 * link, the JSON of the page state) and the page itself leave as they are. Only values those leave as
 * they are too take this way: request ids of `[A-Za-z0-9._-]` (a `~` would be `%7E` in a link's
 * query), and codes as the page shows them (a lower-case UUID, which the page's grouping of a typed
 * code leaves alone). Any other page is rendered as it is. That the two ways give the same page is
 * tested (page-templates.test.ts), for every page.
 */
export const REQUEST_ID_STAND_IN = 'StandInForTheRequestId0c0nc1erge';
/** A lower-case UUID v4, as the page shows a code: the page's own normalising keeps it as it is. */
export const REGISTRATION_CODE_STAND_IN = '5ca1ab1e-c0de-4c0d-8c0d-c0dec0dec0de';
/**
 * The form token's place in a page with a form, until the visitor's own token is put in
 * (routes/portal-pages.ts): letters and digits too.
 */
export const FORM_TOKEN_STAND_IN = 'StandInForTheFormToken0c0nc1erge';
/** Every stand-in a kept page may hold. */
export const STAND_INS = [REQUEST_ID_STAND_IN, REGISTRATION_CODE_STAND_IN, FORM_TOKEN_STAND_IN];
const REPLACEABLE_REQUEST_ID = /^[A-Za-z0-9._-]{1,200}$/;
/** Pages kept; the oldest goes first. A page is a few dozen KiB, with its key. */
const KEPT_PAGES = 200;

export interface PageTemplate {
  /** The URL to render, with the stand-ins. */
  url: string;
  /** The state to render with, with the stand-in for the request id. */
  state: PortalPageState;
  /** Each stand-in in the rendered page, and what it stands for. */
  values: [standIn: string, value: string][];
}

/**
 * The page as it is rendered with stand-ins, or undefined when neither its address nor its state has a
 * request id that can be put in afterwards (or the URL has it in a form the query does not take
 * literally, e.g. twice or percent-encoded).
 */
export function pageTemplateFor(url: string, state: PortalPageState): PageTemplate | undefined {
  // A stand-in may stand only where its value stood: a URL that carries one elsewhere (in a
  // `username`, say) would have that replaced too.
  if (STAND_INS.some((standIn) => url.includes(standIn))) return undefined;
  const queryStart = url.indexOf('?');
  const pairs = queryStart === -1 ? [] : url.slice(queryStart + 1).split('&');
  /** A parameter's one value as the URL has it; null when it is absent, undefined when it is there twice. */
  const single = (name: string) => {
    const found = pairs.filter((pair) => pair.startsWith(`${name}=`));
    return found.length === 1 ? found[0]!.slice(name.length + 1) : found.length === 0 ? null : undefined;
  };
  // The address's request id, or else the one the server obtained for the page.
  const addressRequestId = single('requestId');
  const { signInRequest } = state;
  const requestId = addressRequestId === null ? signInRequest?.requestId : addressRequestId;
  if (requestId === undefined || !REPLACEABLE_REQUEST_ID.test(requestId)) return undefined;
  if (signInRequest && signInRequest.requestId !== requestId) return undefined;
  const values: PageTemplate['values'] = [[REQUEST_ID_STAND_IN, requestId]];
  // The letter's code, when the page shows it exactly as the link has it (and no `code` competes).
  const code = single('code') === null ? single('registrationcode') : undefined;
  const isCodeKept = typeof code === 'string' && normaliseRegistrationCode(code) === code;
  if (isCodeKept) values.push([REGISTRATION_CODE_STAND_IN, code]);
  const query = pairs.map((pair) => {
    if (pair.startsWith('requestId=')) return `requestId=${REQUEST_ID_STAND_IN}`;
    if (isCodeKept && pair.startsWith('registrationcode='))
      return `registrationcode=${REGISTRATION_CODE_STAND_IN}`;
    return pair;
  });
  return {
    url: query.length > 0 ? `${url.slice(0, queryStart)}?${query.join('&')}` : url,
    state: signInRequest
      ? { ...state, signInRequest: { ...signInRequest, requestId: REQUEST_ID_STAND_IN } }
      : state,
    values,
  };
}

export interface KeptPage {
  status: number;
  html: string;
}

/**
 * A kept page: its status and its text with the stand-ins, and from its second use on that text
 * compressed once with holes for them (http/gzip-template.ts). A page asked for once (a return with
 * a visitor's own e-mail in its address) is not worth the compression.
 */
export interface KeptTemplate extends KeptPage {
  gzip?: GzipTemplate;
}

/** The pages rendered with stand-ins, by everything they were rendered from. */
export class PageTemplates {
  readonly #pages = new Map<string, KeptTemplate>();

  /** `key` must name everything the page is made of: the URL and the whole state. */
  async page(key: string, render: () => Promise<KeptPage>): Promise<KeptTemplate> {
    const kept = this.#pages.get(key);
    if (kept) {
      // Most recently used last, so the first is the one to let go.
      this.#pages.delete(key);
      this.#pages.set(key, kept);
      kept.gzip ??= new GzipTemplate(kept.html, STAND_INS);
      return kept;
    }
    const page: KeptTemplate = await render();
    if (this.#pages.size >= KEPT_PAGES) this.#pages.delete(this.#pages.keys().next().value!);
    this.#pages.set(key, page);
    return page;
  }
}

/** The kept page's text with each value in place of its stand-in. */
export const withValues = (html: string, values: ReadonlyMap<string, string>) =>
  [...values].reduce((page, [standIn, value]) => page.replaceAll(standIn, value), html);
