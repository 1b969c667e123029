import { vi } from 'vitest';

export type FetchAnswer = unknown | Response | Promise<never>;
export type FetchRoutes = Record<string, (url: URL, init?: RequestInit) => FetchAnswer>;

/**
 * Answers the page's calls to the provider and the server (the parts outside the page under test)
 * by matching each URL's path against the keys ("METHOD /path" or "/path" prefix). Unmatched calls fail.
 */
export function stubFetch(routes: FetchRoutes) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://portal.test');
    const method = init?.method ?? 'GET';
    const entry = Object.entries(routes).find(([key]) => {
      const [keyMethod, keyPath] = key.includes(' ') ? key.split(' ') : [undefined, key];
      return (!keyMethod || keyMethod === method) && url.pathname.startsWith(keyPath!);
    });
    if (!entry) throw new TypeError(`unexpected fetch ${method} ${url}`);
    const answer = await entry[1](url, init);
    return answer instanceof Response ? answer : new Response(JSON.stringify(answer), { status: 200 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

export const clientInfoAnswer = (registration_enabled = true) => ({
  success: true,
  status: 200,
  data: { client_id: 'property-portal-demo', registration_enabled, invite_enabled: true },
});
