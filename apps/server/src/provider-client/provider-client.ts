import { envelopeSchema } from '@concierge/contracts';

export interface ProviderClientOptions {
  /** cidaasBaseUrl: the embedded provider or a cidaas tenant. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Per request; an outbound call never waits longer. */
  timeoutMs?: number;
}

export type ProviderResult<T> =
  | { ok: true; status: number; data: T }
  | { ok: false; status: number; code: string | number | undefined; message: string | undefined };

/**
 * The call may or may not have taken effect at the provider: it timed out or the connection broke
 * after the request was sent. Callers that change state must treat this as an unknown outcome.
 */
export class ProviderUnreachableError extends Error {
  override name = 'ProviderUnreachableError';
}

const TOKEN_MARGIN_MS = 30_000;

/**
 * The one HTTP client for the identity provider, used against cidaas and the embedded provider alike
 * (provider-protocol.md, "Admin API"): a client-credentials token, cached until shortly before it
 * expires, a timeout on every request, and answers read by the envelope's `success`, not the status
 * alone, as cidaas's own SDK does.
 */
export class ProviderClient {
  readonly #options: Required<ProviderClientOptions>;
  #token: { value: string; expiresAt: number } | undefined;
  #tokenRequest: Promise<string> | undefined;

  constructor(options: ProviderClientOptions) {
    this.#options = { timeoutMs: 5000, ...options, baseUrl: options.baseUrl.replace(/\/+$/, '') };
  }

  get baseUrl(): string {
    return this.#options.baseUrl;
  }

  /** A JSON call of the admin API with the bearer token; one retry with a fresh token on 401. */
  async call<T>(
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ProviderResult<T>> {
    let response = await this.#send(method, path, body, headers, await this.#accessToken());
    if (response.status === 401) {
      this.#token = undefined;
      response = await this.#send(method, path, body, headers, await this.#accessToken());
    }
    return readEnvelope<T>(response);
  }

  async #send(method: string, path: string, body: unknown, headers: Record<string, string>, token: string) {
    try {
      return await fetch(`${this.#options.baseUrl}${path}`, {
        method,
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.#options.timeoutMs),
      });
    } catch (error) {
      throw new ProviderUnreachableError(`${method} ${path}: ${(error as Error).message}`, { cause: error });
    }
  }

  async #accessToken(): Promise<string> {
    if (this.#token && this.#token.expiresAt > Date.now()) return this.#token.value;
    // Parallel callers share one token request.
    this.#tokenRequest ??= this.#requestToken().finally(() => {
      this.#tokenRequest = undefined;
    });
    return this.#tokenRequest;
  }

  async #requestToken(): Promise<string> {
    const { baseUrl, clientId, clientSecret, timeoutMs } = this.#options;
    let response: Response;
    try {
      response = await fetch(`${baseUrl}/token-srv/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: clientId,
          client_secret: clientSecret,
        }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new ProviderUnreachableError(`token: ${(error as Error).message}`, { cause: error });
    }
    const json = (await response.json().catch(() => null)) as {
      access_token?: unknown;
      expires_in?: unknown;
    } | null;
    if (!response.ok || typeof json?.access_token !== 'string') {
      throw new Error(`The provider refused the server's client credentials (HTTP ${response.status})`);
    }
    const lifetimeMs = (typeof json.expires_in === 'number' ? json.expires_in : 300) * 1000;
    this.#token = {
      value: json.access_token,
      expiresAt: Date.now() + Math.max(lifetimeMs - TOKEN_MARGIN_MS, 5000),
    };
    return json.access_token;
  }
}

async function readEnvelope<T>(response: Response): Promise<ProviderResult<T>> {
  const json: unknown = await response.json().catch(() => undefined);
  const envelope = envelopeSchema.safeParse(json);
  if (!envelope.success) {
    return {
      ok: false,
      status: response.status,
      code: undefined,
      message: `unreadable answer (HTTP ${response.status})`,
    };
  }
  const { success, status, data, error } = envelope.data;
  if (success && response.ok) return { ok: true, status: status ?? response.status, data: data as T };
  const errorObject = typeof error === 'object' ? error : undefined;
  return {
    ok: false,
    status: status ?? response.status,
    code: errorObject?.code,
    message: typeof error === 'string' ? error : errorObject?.error,
  };
}
