import { envelopeSchema } from '@concierge/contracts';
import { type ProviderResult, refusal, unknown } from './provider-result';

export interface ProviderHttpOptions {
  /** cidaasBaseUrl: a cidaas tenant or the embedded provider. */
  baseUrl: string;
  /** The server's admin client (client credentials). */
  clientId: string;
  clientSecret: string;
  /** Per request, body included; an outbound call never waits longer. */
  timeoutMs?: number;
}

export interface ProviderRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

const TOKEN_MARGIN_MS = 30_000;
const DEFAULT_TIMEOUT_MS = 5000;

/**
 * The wire under every provider call: the admin API's client-credentials token (cached until shortly
 * before it expires, one retry with a fresh one on 401), a timeout on every request, redirects never
 * followed, and every answer sorted into answer, refusal or unknown (provider-result.ts). It knows
 * no paths but the token's: those belong to the typed calls beside it.
 */
export class ProviderHttp {
  readonly #options: Required<ProviderHttpOptions>;
  #token: { value: string; expiresAt: number } | undefined;
  #tokenRequest: Promise<ProviderResult<string>> | undefined;

  constructor(options: ProviderHttpOptions) {
    this.#options = {
      timeoutMs: DEFAULT_TIMEOUT_MS,
      ...options,
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
    };
  }

  get baseUrl(): string {
    return this.#options.baseUrl;
  }

  /** A call of the admin API, with the bearer token. */
  async admin<T>(request: ProviderRequest): Promise<ProviderResult<T | undefined>> {
    const token = await this.#accessToken();
    if (token.kind !== 'answer') return token;
    const first = await this.#send<T>(request, token.data);
    if (!(first.kind === 'refusal' && first.status === 401)) return first;
    this.#token = undefined;
    const fresh = await this.#accessToken();
    return fresh.kind === 'answer' ? this.#send<T>(request, fresh.data) : fresh;
  }

  /** A call that needs no token (the hosted-page calls the server makes, e.g. authz/generate). */
  anonymous<T>(request: ProviderRequest): Promise<ProviderResult<T | undefined>> {
    return this.#send<T>(request, undefined);
  }

  async #send<T>(
    request: ProviderRequest,
    token: string | undefined,
  ): Promise<ProviderResult<T | undefined>> {
    const { method, path, body, headers = {} } = request;
    let response: Response;
    try {
      response = await fetch(`${this.#options.baseUrl}${path}`, {
        method,
        redirect: 'manual',
        headers: {
          accept: 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.#options.timeoutMs),
      });
      return readAnswer<T>(response, await response.text());
    } catch (error) {
      return unknown(`${method} ${pathOnly(path)}: ${(error as Error).name}`);
    }
  }

  async #accessToken(): Promise<ProviderResult<string>> {
    if (this.#token && this.#token.expiresAt > Date.now()) {
      return { kind: 'answer', status: 200, data: this.#token.value };
    }
    // Parallel callers share one token request.
    this.#tokenRequest ??= this.#requestToken().finally(() => {
      this.#tokenRequest = undefined;
    });
    return this.#tokenRequest;
  }

  async #requestToken(): Promise<ProviderResult<string>> {
    const { baseUrl, clientId, clientSecret, timeoutMs } = this.#options;
    let response: Response;
    let json: { access_token?: unknown; expires_in?: unknown } | null;
    try {
      response = await fetch(`${baseUrl}/token-srv/token`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: clientId,
          client_secret: clientSecret,
        }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      json = (await response.json().catch(() => null)) as typeof json;
    } catch (error) {
      return unknown(`token: ${(error as Error).name}`);
    }
    if (response.status >= 500) return unknown(`token: HTTP ${response.status}`);
    if (!response.ok || typeof json?.access_token !== 'string') {
      // Nothing else was sent: the admin call behind it is a definite "no".
      return refusal(
        response.status === 200 ? 502 : response.status,
        'token_refused',
        'client credentials refused',
      );
    }
    const lifetimeMs = (typeof json.expires_in === 'number' ? json.expires_in : 300) * 1000;
    this.#token = {
      value: json.access_token,
      expiresAt: Date.now() + Math.max(lifetimeMs - TOKEN_MARGIN_MS, 5000),
    };
    return { kind: 'answer', status: 200, data: json.access_token };
  }
}

/**
 * cidaas's envelope, read as its own SDK reads it (`success` first), and every other shape sorted:
 * an empty 2xx is an answer without data; a 4xx is a refusal even without an envelope; a 5xx, a
 * redirect, or a 2xx that is not an envelope (an HTML page) is an unknown outcome.
 */
export function readAnswer<T>(response: Response, text: string): ProviderResult<T | undefined> {
  const { status } = response;
  const isClientError = status >= 400 && status < 500;
  if (status >= 500) return unknown(`HTTP ${status}`);
  if (status >= 300 && status < 400) return unknown(`redirect (HTTP ${status})`);
  if (status >= 200 && status < 300 && text.trim() === '') return { kind: 'answer', status, data: undefined };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return isClientError ? refusal(status, undefined, 'not JSON') : unknown(`not JSON (HTTP ${status})`);
  }
  const envelope = envelopeSchema.safeParse(json);
  if (!envelope.success) {
    return isClientError
      ? refusal(status, undefined, 'no envelope')
      : unknown(`no envelope (HTTP ${status})`);
  }
  const { success, data, error } = envelope.data;
  if (success && !isClientError) return { kind: 'answer', status, data: data as T };
  const errorObject = typeof error === 'object' ? error : undefined;
  return refusal(
    isClientError ? status : (envelope.data.status ?? status),
    typeof error === 'string' ? error : errorObject?.code,
    typeof error === 'string' ? error : errorObject?.error,
  );
}

/** Paths carry subs; a log line names the route only. */
function pathOnly(path: string): string {
  return path.split('?', 1)[0]!.replace(/\/[^/]*\d[^/]*$/, '/…');
}
