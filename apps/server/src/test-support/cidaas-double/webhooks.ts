import { randomUUID } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { WebhookTarget } from './types';

export type DoubleEventType = 'LOGIN_FAILURE' | 'LOGIN_WITH_CIDAAS' | 'ACCOUNT_LOCKED' | 'PASSWORD_RESET';

export interface DoubleEvent {
  eventtype: DoubleEventType;
  client_id: string;
  sub: string;
}

/** Retries after the first attempt, on a non-2xx answer or no answer. */
const MAX_RETRIES = 3;
const RETRY_PAUSE_MS = 20;
const ATTEMPT_TIMEOUT_MS = 5000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once the HTTP answer has left (or the connection is gone). */
function answered(reply: FastifyReply): Promise<void> {
  const raw = reply.raw;
  if (raw.writableFinished || raw.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    raw.once('finish', () => resolve());
    raw.once('close', () => resolve());
  });
}

/**
 * Sends cidaas's webhooks as the double's variant: `sub` only, never an e-mail (the server must resolve
 * it through user-by-sub), and only after the answer is out, the way cidaas does not wait for them.
 */
export class WebhookSender {
  readonly #pending = new Set<Promise<void>>();
  #target: WebhookTarget | undefined;
  /** Read before each event: the variant may change between calls. */
  readonly #delayMs: () => number;

  constructor(target: WebhookTarget | undefined, delayMs: () => number) {
    this.#target = target;
    this.#delayMs = delayMs;
  }

  /** The receiver usually starts after the double (it needs the double's URL): set it then. */
  setTarget(target: WebhookTarget): void {
    this.#target = target;
  }

  /** Registered at once (so webhooksSettled() sees it), sent once `reply` has been answered. */
  schedule(reply: FastifyReply, events: DoubleEvent[]): void {
    const target = this.#target;
    if (!target || events.length === 0) return;
    const delivery = (async () => {
      await answered(reply);
      for (const event of events) {
        await sleep(this.#delayMs());
        const { eventtype, client_id, sub } = event;
        const body = { id: randomUUID(), eventtype, timestamp: new Date().toISOString(), client_id, sub };
        await deliver(target, body);
      }
    })();
    this.#pending.add(delivery);
    void delivery.finally(() => this.#pending.delete(delivery));
  }

  async settled(): Promise<void> {
    await Promise.all(this.#pending);
  }
}

/** One event, at least once: the same `id` on every retry, so the receiver can deduplicate. */
async function deliver(target: WebhookTarget, body: object): Promise<void> {
  for (let attempt = 0; attempt <= MAX_RETRIES; attempt += 1) {
    if (attempt > 0) await sleep(RETRY_PAUSE_MS * attempt);
    try {
      const response = await fetch(target.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [target.apiKeyHeader]: target.apiKey },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      await response.arrayBuffer().catch(() => undefined);
      if (response.ok) return;
    } catch {
      // No answer counts as a failed attempt, like a non-2xx one.
    }
  }
}
