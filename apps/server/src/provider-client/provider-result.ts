/**
 * What every call to the identity provider ends in — exactly one of three, never a thrown error:
 *
 * - answer: the provider did it (2xx with `success:true`, or an empty 2xx such as 204);
 * - refusal: the provider definitely did not (`success:false` or a 4xx), with cidaas's code as a
 *   string ("10001"), so integer and string codes compare alike;
 * - unknown: no readable answer (unreachable, timed out, a 5xx, a redirect, an HTML page). A call
 *   that changes state may or may not have taken effect: its caller settles it, never guesses.
 */
export type ProviderResult<T> = ProviderAnswer<T> | ProviderRefusal | ProviderUnknown;

export interface ProviderAnswer<T> {
  kind: 'answer';
  status: number;
  data: T;
}

export interface ProviderRefusal {
  kind: 'refusal';
  status: number;
  code: string | undefined;
  /** The provider's own text; for logs only, it may name fields but never carries our secrets. */
  message: string | undefined;
}

export interface ProviderUnknown {
  kind: 'unknown';
  reason: string;
  /**
   * Certain that the call never reached the provider: the circuit breaker held it back, or the token
   * it needed could not be had. Nothing can have changed; such a call may be answered as not done.
   */
  isNotSent?: true;
}

export function answer<T>(data: T, status = 200): ProviderAnswer<T> {
  return { kind: 'answer', status, data };
}

export function refusal(
  status: number,
  code: string | number | undefined,
  message?: string,
): ProviderRefusal {
  return { kind: 'refusal', status, code: code === undefined ? undefined : String(code), message };
}

export function unknown(reason: string, options: { isNotSent?: boolean } = {}): ProviderUnknown {
  return options.isNotSent ? { kind: 'unknown', reason, isNotSent: true } : { kind: 'unknown', reason };
}

/** A refusal with one of these cidaas codes. */
export function isRefusedWith(
  result: ProviderResult<unknown>,
  ...codes: string[]
): result is ProviderRefusal {
  return result.kind === 'refusal' && result.code !== undefined && codes.includes(result.code);
}

/** For logs: what happened, without any value that was sent. */
export function describeResult(result: ProviderResult<unknown>): string {
  switch (result.kind) {
    case 'answer':
      return `answer (HTTP ${result.status})`;
    case 'refusal':
      return `refusal (HTTP ${result.status}${result.code ? `, code ${result.code}` : ''})`;
    case 'unknown':
      return `unknown outcome (${result.reason})`;
  }
}
