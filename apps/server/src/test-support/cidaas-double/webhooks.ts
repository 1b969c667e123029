import { randomUUID } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { CidaasDoubleVariants, WebhookTarget } from './types';

/**
 * Event names that exist at cidaas (documented: Cidaas/terraform-provider-cidaas
 * helpers/cidaas/webhook.go AllowedEvents). When cidaas sends each of them is unknown; the double
 * sends LOGIN_FAILURE for a known user's failed sign-in, ACCOUNT_LOCKED with the failure that
 * blocks, LOGIN_WITH_CIDAAS for a sign-in and PASSWORD_RESET for a completed reset.
 */
export type DoubleEventType = 'LOGIN_FAILURE' | 'LOGIN_WITH_CIDAAS' | 'ACCOUNT_LOCKED' | 'PASSWORD_RESET';

export interface DoubleEvent {
  eventtype: DoubleEventType;
  client_id: string;
  /** The user it is about. Events are sent only where there is one (none for an unknown e-mail). */
  sub: string;
}

/** Per attempt: an endpoint that does not answer counts as a failed attempt (ours). */
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
 * The body as the variant webhookBody has it (types.ts names the sources). Built once per event:
 * every retry repeats it, its `createTime` (or `id`) included, so that a receiver can tell a
 * redelivery from a new event.
 */
function bodyOf(event: DoubleEvent, at: Date, tenantKey: string, shape: CidaasDoubleVariants['webhookBody']) {
  if (shape === 'with-id') {
    return {
      id: randomUUID(),
      eventtype: event.eventtype,
      timestamp: at.toISOString(),
      client_id: event.client_id,
      sub: event.sub,
    };
  }
  // The documented fields; which of them name the user of a login event, and objectType's value
  // for a user, are unknown (actorId and objectId as the sub, 'USER').
  return {
    eventtype: event.eventtype,
    createTime: at.toISOString(),
    client_id: event.client_id,
    tenantKey,
    actorId: event.sub,
    objectId: event.sub,
    objectType: 'USER',
    metaData: {},
  };
}

/**
 * Sends cidaas's webhooks after the answer is out (cidaas does not hold its answer for them; when
 * exactly it sends is the variant webhookDelayMs), never an e-mail (documented: no personal data).
 * Every variant is read when the event happens.
 */
export class WebhookSender {
  readonly #pending = new Set<Promise<void>>();
  #target: WebhookTarget | undefined;
  readonly #variants: () => CidaasDoubleVariants;
  readonly #tenantKey: string;
  #lastAt = 0;
  /** Settled unless a test holds the deliveries back (hold()). */
  #held: Promise<void> = Promise.resolve();

  constructor(variants: () => CidaasDoubleVariants, tenantKey: string) {
    this.#variants = variants;
    this.#tenantKey = tenantKey;
  }

  /** The receiver usually starts after the double (it needs the double's URL): set it then. */
  setTarget(target: WebhookTarget): void {
    this.#target = target;
  }

  /** Registered at once (so webhooksSettled() sees it), sent once `reply` has been answered. */
  schedule(reply: FastifyReply, events: DoubleEvent[]): void {
    const target = this.#target;
    if (!target || events.length === 0) return;
    const variants = this.#variants();
    // Ours: no two events of the double share a time, so that one without an id is told apart by it.
    this.#lastAt = Math.max(Date.now(), this.#lastAt + 1);
    const at = new Date(this.#lastAt);
    const bodies = events.map((event) => bodyOf(event, at, this.#tenantKey, variants.webhookBody));
    const delivery = (async () => {
      await answered(reply);
      for (const body of bodies) {
        await sleep(variants.webhookDelayMs);
        await this.#held;
        await deliver(target, body, variants);
      }
    })();
    this.#pending.add(delivery);
    void delivery.finally(() => this.#pending.delete(delivery));
  }

  /**
   * Holds back every delivery not yet sent until the returned function is called: the events come
   * after whatever the test does meanwhile, a lag as late as cidaas may send them (unknown).
   */
  hold(): () => void {
    let release = () => {};
    this.#held = new Promise((resolve) => {
      release = resolve;
    });
    return release;
  }

  async settled(): Promise<void> {
    await Promise.all(this.#pending);
  }
}

/**
 * One event, at least once: documented, "an answer other than 200" is retried up to 3 more times
 * (after 1, 5 and 10 minutes; here variant webhookRetryPausesMs). The key goes under its configured
 * name in the header or the query string (variant webhookKeyPlacement). Which errors cidaas counts
 * as permanent and does not retry is unknown: the double retries every answer but 200.
 */
async function deliver(target: WebhookTarget, body: object, variants: CidaasDoubleVariants): Promise<void> {
  const url = new URL(target.url);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (variants.webhookKeyPlacement === 'query') url.searchParams.set(target.apiKeyHeader, target.apiKey);
  else headers[target.apiKeyHeader] = target.apiKey;
  const pauses = variants.webhookRetryPausesMs;
  for (let attempt = 0; attempt <= pauses.length; attempt += 1) {
    if (attempt > 0) await sleep(pauses[attempt - 1]!);
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      await response.arrayBuffer().catch(() => undefined);
      if (response.status === 200) return;
    } catch {
      // No answer counts as a failed attempt, like an answer other than 200.
    }
  }
}
