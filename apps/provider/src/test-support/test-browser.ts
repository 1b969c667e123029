interface StoredCookie {
  name: string;
  value: string;
  path: string;
}

/**
 * Just enough of a browser for the OIDC flows: one origin, a cookie jar that honours Path and
 * deletion, and manual redirects so that every hop can be looked at.
 */
export class TestBrowser {
  readonly #cookies = new Map<string, StoredCookie>();

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookie = this.cookieHeader(new URL(url).pathname);
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) this.#store(line);
    return response;
  }

  /** Follows redirects (GET) until the location satisfies isDone, which is returned unfetched. */
  async followUntil(url: string, isDone: (url: string) => boolean, maxHops = 10): Promise<URL> {
    let current = url;
    for (let hop = 0; hop < maxHops; hop += 1) {
      if (isDone(current)) return new URL(current);
      const response = await this.fetch(current);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) {
        throw new Error(
          `stopped at ${current} with ${response.status}: ${(await response.text()).slice(0, 300)}`,
        );
      }
      current = new URL(location, current).href;
    }
    throw new Error(`too many redirects from ${url}`);
  }

  /** The value of a stored cookie, as document.cookie would show it on that path. */
  cookie(name: string, path = '/'): string | undefined {
    return this.#cookies.get(`${name};${path}`)?.value;
  }

  cookieHeader(path: string): string {
    return [...this.#cookies.values()]
      .filter(
        (cookie) =>
          path === cookie.path ||
          path.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`),
      )
      .map((cookie) => `${cookie.name}=${cookie.value}`)
      .join('; ');
  }

  #store(line: string): void {
    const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
    const separator = pair.indexOf('=');
    const name = pair.slice(0, separator);
    const value = pair.slice(separator + 1);
    let path = '/';
    let isExpired = value === '';
    for (const attribute of attributes) {
      const [key = '', attributeValue = ''] = attribute.split('=');
      if (key.toLowerCase() === 'path') path = attributeValue || '/';
      if (key.toLowerCase() === 'expires' && Date.parse(attributeValue) <= Date.now()) isExpired = true;
      if (key.toLowerCase() === 'max-age' && Number(attributeValue) <= 0) isExpired = true;
    }
    const key = `${name};${path}`;
    if (isExpired) this.#cookies.delete(key);
    else this.#cookies.set(key, { name, value, path });
  }
}
