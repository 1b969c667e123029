/**
 * How many fresh sign-in requests one client address may have this instance make per minute (a page
 * opened without a usable request id costs one at the provider, ssr/page-sign-in-request.ts). A
 * guard against a visitor minting requests without end through this server — whose address cidaas
 * would then slow down for every tenant — not a count that must agree across instances: it lives in
 * memory, so a page needs no database for it and costs no write (per instance, N instances allow N
 * times as many).
 */
export class FreshRequestLimit {
  readonly #hits = new Map<string, number>();
  #windowStart = 0;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one fresh request for the address; false when the address is over its limit. */
  take(address: string): boolean {
    const window = Math.floor(this.now() / 60_000);
    if (window !== this.#windowStart) {
      this.#hits.clear();
      this.#windowStart = window;
    }
    const hits = (this.#hits.get(address) ?? 0) + 1;
    // Bounded: a flood from many addresses ends the window early rather than the memory.
    if (this.#hits.size >= MAX_ADDRESSES && !this.#hits.has(address)) this.#hits.clear();
    this.#hits.set(address, hits);
    return hits <= this.perMinute;
  }
}

const MAX_ADDRESSES = 100_000;
