import { setTimeout as sleep } from 'node:timers/promises';
import { envelopeSchema } from '@concierge/contracts';
import { request as send } from 'undici';
import { type BreakerState, CircuitBreaker } from './circuit-breaker';
import {
  type ProviderRefusal,
  type ProviderResult,
  type ProviderUnknown,
  refusal,
  unknown,
} from './provider-result';

export interface ProviderHttpOptions {
  /** cidaasBaseUrl: a cidaas tenant or the embedded provider. */
  baseUrl: string;
  /** The server's admin client (client credentials). */
  clientId: string;
  clientSecret: string;
  /** Per attempt, body included; an outbound request never waits longer. */
  timeoutMs?: number;
  /** Further attempts of an idempotent call after no answer or a 5xx; never after a timeout. */
  retries?: number;
  /** The wait before the first further attempt, doubled for each next one, plus up to as much at random. */
  retryBackoffMs?: number;
  /** The circuit breaker (circuit-breaker.ts); `now` for tests. */
  breaker?: { threshold?: number; windowMs?: number; coolDownMs?: number; now?: () => number };
  /** Told of every call, retry, held-back call and breaker change: the metrics. */
  observer?: ProviderCallObserver;
  /** A span for each request on the wire, and its `traceparent` (observability/tracing.ts); unset: none. */
  tracing?: ProviderCallTracing;
}

export interface ProviderCallObserver {
  /** A call ended, after all its attempts (an admin call: with the token it needed), as the wire answered. */
  called(operation: string, outcome: ProviderResult<unknown>['kind'], seconds: number): void;
  /** An idempotent call is sent again. */
  retried(operation: string): void;
  /** The open breaker held a request back: nothing was sent. */
  rejected(operation: string): void;
  breakerChanged(state: BreakerState): void;
}

/** The traces' side of the provider calls: one span per request that goes out (each attempt its own). */
export interface ProviderCallTracing {
  startProviderRequest(request: {
    method: string;
    url: string;
    operation: string;
    attempt: number;
  }): TracedProviderRequest;
}

export interface TracedProviderRequest {
  /** Headers that carry the span to the provider (W3C `traceparent`). */
  headers: Record<string, string>;
  /** The request was answered with this status (its body read), or failed without an answer. */
  end(outcome: { status: number } | { error: string }): void;
}

export interface ProviderRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** The call's name in metrics (e.g. `register`); else the method and the path's first two segments. */
  operation?: string;
  /** Sending it twice leaves the provider as sending it once does, so it may be retried. GETs are. */
  isIdempotent?: boolean;
}

const TOKEN_MARGIN_MS = 30_000;
/** docs/operations.md, "Provider calls": the defaults, each configurable (config.ts). */
export const PROVIDER_CALL_DEFAULTS = {
  timeoutMs: 5000,
  retries: 1,
  retryBackoffMs: 200,
  breaker: { threshold: 5, windowMs: 30_000, coolDownMs: 30_000 },
} as const;

/** One request on the wire: its answer's status with the body read, or why there is none. */
type Exchange =
  | { kind: 'response'; status: number; text: string }
  | { kind: 'failed'; result: ProviderUnknown };

/** What goes on the wire: undici sends it as it is and follows no redirect. */
interface WireRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * The wire under every provider call: the admin API's client-credentials token (cached until shortly
 * before it expires, one retry with a fresh one on 401), a timeout on every request, redirects never
 * followed, idempotent calls retried after no answer, a circuit breaker that fails calls fast while
 * the provider is away, and every answer sorted into answer, refusal or unknown (provider-result.ts).
 * It knows no paths but the token's: those belong to the typed calls beside it.
 */
export class ProviderHttp {
  readonly #options: Required<Omit<ProviderHttpOptions, 'breaker' | 'observer' | 'tracing'>>;
  readonly #observer: ProviderCallObserver | undefined;
  readonly #tracing: ProviderCallTracing | undefined;
  readonly #breaker: CircuitBreaker;
  #token: { value: string; expiresAt: number } | undefined;
  #tokenRequest: Promise<ProviderResult<string>> | undefined;

  constructor(options: ProviderHttpOptions) {
    const { breaker, observer, tracing, ...rest } = options;
    this.#options = {
      timeoutMs: PROVIDER_CALL_DEFAULTS.timeoutMs,
      retries: PROVIDER_CALL_DEFAULTS.retries,
      retryBackoffMs: PROVIDER_CALL_DEFAULTS.retryBackoffMs,
      ...rest,
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
    };
    this.#observer = observer;
    this.#tracing = tracing;
    this.#breaker = new CircuitBreaker({
      ...PROVIDER_CALL_DEFAULTS.breaker,
      ...breaker,
      onStateChange: (state) => observer?.breakerChanged(state),
    });
  }

  /** The breaker is open: calls fail fast, nothing goes out until its cool-down ends. */
  get isKnownAway(): boolean {
    return this.#breaker.state === 'open';
  }

  get baseUrl(): string {
    return this.#options.baseUrl;
  }

  /** A call of the admin API, with the bearer token. */
  admin<T>(request: ProviderRequest): Promise<ProviderResult<T | undefined>> {
    return this.#observed(operationOf(request), async () => {
      const token = await this.#accessToken();
      if (token.kind !== 'answer') return notSent(token);
      const first = await this.#send<T>(request, token.data);
      if (!(first.kind === 'refusal' && first.status === 401)) return first;
      this.#token = undefined;
      const fresh = await this.#accessToken();
      return fresh.kind === 'answer' ? this.#send<T>(request, fresh.data) : notSent(fresh);
    });
  }

  /** A call that needs no token (the hosted-page calls the server makes, e.g. authz/generate). */
  anonymous<T>(request: ProviderRequest): Promise<ProviderResult<T | undefined>> {
    return this.#observed(operationOf(request), () => this.#send<T>(request, undefined));
  }

  async #send<T>(
    request: ProviderRequest,
    token: string | undefined,
  ): Promise<ProviderResult<T | undefined>> {
    const { method, path, body, headers = {} } = request;
    const exchange = await this.#exchange(
      { operation: operationOf(request), label: `${method} ${pathOnly(path)}` },
      request.isIdempotent ?? method === 'GET',
      `${this.#options.baseUrl}${path}`,
      {
        method,
        headers: {
          accept: 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      },
    );
    return exchange.kind === 'failed' ? exchange.result : readAnswer<T>(exchange.status, exchange.text);
  }

  /**
   * Sends a request, through the breaker, and again while it is idempotent, went unanswered (a
   * broken connection or a 5xx, not a timeout: that has spent its time already) and attempts are left.
   */
  async #exchange(
    call: { operation: string; label: string },
    isIdempotent: boolean,
    url: string,
    init: WireRequest,
  ): Promise<Exchange> {
    const { timeoutMs, retries, retryBackoffMs } = this.#options;
    const attempts = isIdempotent ? 1 + retries : 1;
    let last: Exchange | undefined;
    for (let attempt = 1; ; attempt += 1) {
      if (!this.#breaker.tryCall()) {
        this.#observer?.rejected(call.operation);
        const reason = `${call.label}: not sent, the provider failed repeatedly (circuit open)`;
        return last ?? { kind: 'failed', result: unknown(reason, { isNotSent: true }) };
      }
      let isRetryable: boolean;
      const traced = this.#tracing?.startProviderRequest({
        method: init.method,
        url,
        operation: call.operation,
        attempt,
      });
      try {
        // undici's request, not fetch: the same client under Node's fetch without the WHATWG
        // streams and objects around it, a quarter of fetch's CPU per call (docs/decisions.md).
        const signal = AbortSignal.timeout(timeoutMs);
        const response = await send(url, {
          ...init,
          headers: traced ? { ...init.headers, ...traced.headers } : init.headers,
          signal,
        });
        const status = response.statusCode;
        last = { kind: 'response', status, text: await response.body.text() };
        traced?.end({ status });
        isRetryable = status >= 500;
        if (isRetryable) this.#breaker.failed();
        else this.#breaker.succeeded();
      } catch (error) {
        this.#breaker.failed();
        const { name } = error as Error;
        traced?.end({ error: name });
        last = { kind: 'failed', result: unknown(`${call.label}: ${name}`) };
        isRetryable = name !== 'TimeoutError';
      }
      if (!isRetryable || attempt >= attempts) return last;
      this.#observer?.retried(call.operation);
      await sleep(retryBackoffMs * 2 ** (attempt - 1) * (1 + Math.random()));
    }
  }

  async #observed<T>(operation: string, call: () => Promise<ProviderResult<T>>): Promise<ProviderResult<T>> {
    const startedAt = performance.now();
    const result = await call();
    this.#observer?.called(operation, result.kind, (performance.now() - startedAt) / 1000);
    return result;
  }

  async #accessToken(): Promise<ProviderResult<string>> {
    if (this.#token && this.#token.expiresAt > Date.now()) {
      return { kind: 'answer', status: 200, data: this.#token.value };
    }
    // Parallel callers share one token request.
    this.#tokenRequest ??= this.#observed('token', () => this.#requestToken()).finally(() => {
      this.#tokenRequest = undefined;
    });
    return this.#tokenRequest;
  }

  async #requestToken(): Promise<ProviderResult<string>> {
    const { baseUrl, clientId, clientSecret } = this.#options;
    // A second token request changes nothing at the provider: idempotent.
    const exchange = await this.#exchange(
      { operation: 'token', label: 'token' },
      true,
      `${baseUrl}/token-srv/token`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: clientId,
          client_secret: clientSecret,
        }).toString(),
      },
    );
    if (exchange.kind === 'failed') return exchange.result;
    const { status, text } = exchange;
    if (status >= 500) return unknown(`token: HTTP ${status}`);
    const json = parseJson(text) as { access_token?: unknown; expires_in?: unknown } | undefined;
    if (status < 200 || status >= 300 || typeof json?.access_token !== 'string') {
      // Nothing else was sent: the admin call behind it is a definite "no".
      return refusal(status === 200 ? 502 : status, 'token_refused', 'client credentials refused');
    }
    const lifetimeMs = (typeof json.expires_in === 'number' ? json.expires_in : 300) * 1000;
    this.#token = {
      value: json.access_token,
      expiresAt: Date.now() + Math.max(lifetimeMs - TOKEN_MARGIN_MS, 5000),
    };
    return { kind: 'answer', status: 200, data: json.access_token };
  }
}

/** Without the token the admin call never went out: an unknown outcome of the token is a certain "not sent". */
function notSent(token: ProviderRefusal | ProviderUnknown): ProviderRefusal | ProviderUnknown {
  return token.kind === 'unknown' ? unknown(token.reason, { isNotSent: true }) : token;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function operationOf(request: ProviderRequest): string {
  return request.operation ?? `${request.method} ${pathOnly(request.path).split('/').slice(0, 3).join('/')}`;
}

/**
 * cidaas's envelope, read as its own SDK reads it (`success` first), and every other shape sorted:
 * an empty 2xx is an answer without data; a 4xx is a refusal even without an envelope; a 5xx, a
 * redirect, or a 2xx that is not an envelope (an HTML page) is an unknown outcome.
 */
export function readAnswer<T>(status: number, text: string): ProviderResult<T | undefined> {
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
