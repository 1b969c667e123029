import type { Kysely } from '@concierge/database';
import type { ServerTables } from '../../db/schema';
import { type CounterReading, readCounters } from './failed-login-counter';

interface Waiter {
  isDone(reading: CounterReading): boolean;
  deadline: number;
  resolve(reading: CounterReading): void;
}

const POLL_MS = 200;

/**
 * Pages waiting for the count of their attempt to move (the provider's event may arrive seconds
 * after its redirect). One query every POLL_MS reads every waited-for e-mail of this instance at
 * once, however many pages wait: 300 waiting pages cost the database what one does.
 */
export class CounterWatch {
  readonly #db: Kysely<ServerTables>;
  readonly #waiters = new Map<string, Set<Waiter>>();
  readonly #pollMs: number;
  #timer: NodeJS.Timeout | undefined;
  #last = new Map<string, CounterReading>();

  constructor(db: Kysely<ServerTables>, options: { pollMs?: number } = {}) {
    this.#db = db;
    this.#pollMs = options.pollMs ?? POLL_MS;
  }

  /** The reading once `isDone` holds, or the last one read when `waitMs` is over. */
  wait(
    email: string,
    first: CounterReading,
    isDone: (reading: CounterReading) => boolean,
    waitMs: number,
  ): Promise<CounterReading> {
    if (isDone(first) || waitMs <= 0) return Promise.resolve(first);
    return new Promise((resolve) => {
      const waiters = this.#waiters.get(email) ?? new Set();
      waiters.add({ isDone, deadline: Date.now() + waitMs, resolve });
      this.#waiters.set(email, waiters);
      this.#last.set(email, this.#last.get(email) ?? first);
      this.#schedule();
    });
  }

  /** Answers every waiting page with what is known now (shutdown). */
  close(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const [email, waiters] of this.#waiters) {
      for (const waiter of waiters)
        waiter.resolve(this.#last.get(email) ?? { counter: 0, isLockPending: false });
    }
    this.#waiters.clear();
  }

  #schedule(): void {
    if (this.#timer || this.#waiters.size === 0) return;
    this.#timer = setTimeout(() => void this.#poll(), this.#pollMs);
    this.#timer.unref();
  }

  async #poll(): Promise<void> {
    const emails = [...this.#waiters.keys()];
    // A failed read answers nobody early; the deadline still ends each wait.
    const readings = await readCounters(this.#db, emails).catch(() => new Map<string, CounterReading>());
    const now = Date.now();
    for (const email of emails) {
      const reading = readings.get(email) ?? this.#last.get(email);
      if (reading) this.#last.set(email, reading);
      const waiters = this.#waiters.get(email);
      if (!waiters) continue;
      for (const waiter of waiters) {
        if (!reading || (!waiter.isDone(reading) && now < waiter.deadline)) continue;
        waiters.delete(waiter);
        waiter.resolve(reading);
      }
      if (waiters.size === 0) {
        this.#waiters.delete(email);
        this.#last.delete(email);
      }
    }
    this.#timer = undefined;
    this.#schedule();
  }
}
