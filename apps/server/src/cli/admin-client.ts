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
    const response = await this.#send(method, path, 'application/json', body);
    const json = await readEnvelope<T>(response);
    if (response.ok && json?.success === true) return json.data as T;
    throw this.#refusal(response, json);
  }

  /** A download (a batch's CSV): the answer's text as it is. */
  async text(path: string): Promise<string> {
    return (await this.#download(path, 'text/csv')).text();
  }

  /** A download of a file that is no text (a batch's letters as PDF): its bytes. */
  async bytes(path: string, type: string): Promise<Buffer> {
    return Buffer.from(await (await this.#download(path, type)).arrayBuffer());
  }

  async #download(path: string, type: string): Promise<Response> {
    const response = await this.#send('GET', path, `${type}, application/json`);
    if (response.ok) return response;
    throw this.#refusal(response, await readEnvelope(response));
  }

  async #send(method: 'GET' | 'POST', path: string, accept: string, body?: object): Promise<Response> {
    try {
      return await fetch(`${this.#baseUrl}/api/admin${path}`, {
        method,
        headers: {
          accept,
          authorization: `Bearer ${this.#token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new CliError(`Cannot reach ${this.#baseUrl}: ${(error as Error).message}`, 1);
    }
  }

  #refusal(response: Response, json: Envelope<unknown> | undefined): CliError {
    if (response.status === 401) {
      return new CliError(`${this.#baseUrl} refused the admin API token (check ADMIN_API_TOKEN).`, 1);
    }
    if (response.status === 404 && json?.error?.code === 'not_found') {
      return new CliError(`${this.#baseUrl} has no admin API (is ADMIN_API_TOKEN set on the server?).`, 1);
    }
    const reason = json?.error
      ? `${json.error.error ?? ''} (${json.error.code ?? 'error'})`
      : 'unreadable answer';
    return new CliError(`The server refused: HTTP ${response.status}: ${reason.trim()}`, 1);
  }
}

type Envelope<T> = { success?: boolean; data?: T; error?: { code?: string; error?: string } };

async function readEnvelope<T>(response: Response): Promise<Envelope<T> | undefined> {
  return (await response.json().catch(() => undefined)) as Envelope<T> | undefined;
}
