import { PORTAL_API_PREFIX } from '@concierge/contracts';
import { clientInfoAnswer, type FetchAnswer, type FetchRoutes, stubFetch } from './stub-fetch';

export const FRESH_REQUEST_ID = 'fresh-request-id';

/** The provider's side of every page: any request id is known, a fresh one can always be had. */
export const providerRoutes: FetchRoutes = {
  '/public-srv/public/': () => clientInfoAnswer(),
  'POST /authz-srv/authrequest/authz/generate': () => ({
    success: true,
    status: 200,
    data: { requestId: FRESH_REQUEST_ID },
  }),
};

/** A JSON answer with a status. */
export function jsonAnswer(status: number, body: unknown): Response {
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** What the server's envelope looks like for a refusal. */
export function errorAnswer(status: number, code: string): Response {
  return jsonAnswer(status, { success: false, status, error: { code, type: 'error', error: code } });
}

export const NETWORK_ERROR = Symbol('network error');

/**
 * Stubs fetch: the portal API call `name` (register-user, activate-user-account …) gets `answer`;
 * the provider calls around the page are answered as usual. `answer` may be a Response, a plain
 * body (200), NETWORK_ERROR, or a promise of a Response (to look at the page while it waits).
 */
export function stubPortalApi(
  name: string,
  answer: FetchAnswer | typeof NETWORK_ERROR,
  routes: FetchRoutes = {},
) {
  const path = `${PORTAL_API_PREFIX}/${name}`;
  const fetchMock = stubFetch({
    ...providerRoutes,
    ...routes,
    [`POST ${path}`]: () => {
      if (answer === NETWORK_ERROR) throw new TypeError('Failed to fetch');
      return answer;
    },
  });
  /** The JSON bodies sent to the call, in order. */
  const sent = () =>
    fetchMock.mock.calls
      .filter(([input]) => String(input) === path)
      .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
  return { fetchMock, sent };
}

/** An answer that arrives when `settle` is called. */
export function pendingAnswer() {
  let settle: (response: Response) => void = () => {};
  const promise = new Promise<Response>((resolve) => {
    settle = resolve;
  });
  return { promise, settle };
}

/** The query parameters of a link's href, for comparing links whose order of parameters is free. */
export function queryOf(element: HTMLElement): Record<string, string> {
  const url = new URL(element.getAttribute('href') ?? '', 'http://portal.test');
  return Object.fromEntries(url.searchParams);
}

export function pathOf(element: HTMLElement): string {
  return new URL(element.getAttribute('href') ?? '', 'http://portal.test').pathname;
}
