import { CliError } from './cli-error';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
// The server's development default (config.ts); it is refused in production.
const DEV_ADMIN_API_TOKEN = 'concierge-dev-admin-token';
const TIMEOUT_MS = 60_000;

/** Calls the server's admin API (/api/admin) and unwraps the envelope, or throws a CliError saying why not. */
export class AdminClient {
  readonly #baseUrl: string;
  readonly #token: string;

  constructor(env: NodeJS.ProcessEnv) {
    const raw = env.CONCIERGE_URL || 'http://localhost:8080';
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new CliError(`CONCIERGE_URL is not a URL: ${raw}`, 2);
    }
    this.#baseUrl = url.origin;
    const token = env.ADMIN_API_TOKEN || (LOCAL_HOSTS.has(url.hostname) ? DEV_ADMIN_API_TOKEN : undefined);
    if (!token) throw new CliError(`Set ADMIN_API_TOKEN to the admin API token of ${url.origin}.`, 2);
    // The server's variable holds two during a rotation; copied here as it is, it would be refused.
    if (token.includes(',')) {
      throw new CliError('ADMIN_API_TOKEN holds a list; give the CLI one token of it.', 2);
    }
    this.#token = token;
  }

  get baseUrl(): string {
    return this.#baseUrl;
  }

  async call<T>(method: 'GET' | 'POST', path: string, body?: object): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.#baseUrl}/api/admin${path}`, {
        method,
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${this.#token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new CliError(`Cannot reach ${this.#baseUrl}: ${(error as Error).message}`, 1);
    }
    const json = (await response.json().catch(() => undefined)) as
      | { success?: boolean; data?: T; error?: { code?: string; error?: string } }
      | undefined;
    if (response.ok && json?.success === true) return json.data as T;
    if (response.status === 401) {
      throw new CliError(`${this.#baseUrl} refused the admin API token (check ADMIN_API_TOKEN).`, 1);
    }
    if (response.status === 404 && json?.error?.code === 'not_found') {
      throw new CliError(`${this.#baseUrl} has no admin API (is ADMIN_API_TOKEN set on the server?).`, 1);
    }
    const reason = json?.error
      ? `${json.error.error ?? ''} (${json.error.code ?? 'error'})`
      : 'unreadable answer';
    throw new CliError(`The server refused: HTTP ${response.status}: ${reason.trim()}`, 1);
  }
}
