export type BreakerState = 'closed' | 'open' | 'half_open';

export interface CircuitBreakerOptions {
  /** This many failures in a row (within `windowMs` of the first) open it; 0 never does. */
  threshold: number;
  windowMs: number;
  /** How long it stays open before one trial call may go out. */
  coolDownMs: number;
  now?: () => number;
  onStateChange?: (state: BreakerState) => void;
}

/**
 * Fails calls fast while the provider is away (docs/operations.md, "Provider calls"): closed, every
 * call goes out; after `threshold` failures in a row it opens and no call goes out for `coolDownMs`;
 * then it is half-open and lets exactly one trial call out, whose success closes it and whose failure
 * opens it again. A failure is no answer at all: unreachable, timed out, or a 5xx.
 */
export class CircuitBreaker {
  readonly #options: CircuitBreakerOptions;
  #state: BreakerState = 'closed';
  #failures = 0;
  #firstFailureAt = 0;
  #openedAt = 0;
  #isTrialOut = false;

  constructor(options: CircuitBreakerOptions) {
    this.#options = options;
  }

  get state(): BreakerState {
    return this.#state;
  }

  /** Whether a call may go out now; in half-open, a true makes this call the trial. */
  tryCall(): boolean {
    if (this.#state === 'open') {
      if (this.#now() - this.#openedAt < this.#options.coolDownMs) return false;
      this.#set('half_open');
    }
    if (this.#state === 'closed') return true;
    if (this.#isTrialOut) return false;
    this.#isTrialOut = true;
    return true;
  }

  /** The provider answered (an answer or a refusal): it is there. */
  succeeded(): void {
    this.#failures = 0;
    this.#isTrialOut = false;
    this.#set('closed');
  }

  failed(): void {
    const now = this.#now();
    this.#isTrialOut = false;
    if (this.#state !== 'closed') {
      // The trial failed: open again. (Already open: a call sent before it opened.)
      if (this.#state === 'half_open') this.#open(now);
      return;
    }
    if (this.#failures === 0 || now - this.#firstFailureAt > this.#options.windowMs) {
      this.#failures = 0;
      this.#firstFailureAt = now;
    }
    this.#failures += 1;
    if (this.#options.threshold > 0 && this.#failures >= this.#options.threshold) this.#open(now);
  }

  #open(now: number): void {
    this.#openedAt = now;
    this.#failures = 0;
    this.#set('open');
  }

  #set(state: BreakerState): void {
    if (state === this.#state) return;
    this.#state = state;
    this.#options.onStateChange?.(state);
  }

  #now(): number {
    return this.#options.now?.() ?? Date.now();
  }
}
