import { loggableError, retryDelayMs } from '@concierge/database';
import type { FastifyBaseLogger } from 'fastify';
import type { OutboxName, ProviderDb } from '../db/schema';
import { CLAIM_LEASE_MS } from './outbox';
import { DEFAULT_RETRY_SCHEDULE, type RetrySchedule } from './retry-schedule';

/** A failure whose message is safe to log and store: it names no address, id or secret. */
export class DeliveryError extends Error {
  override name = 'DeliveryError';
}

export interface OutboxRelayOptions<P> {
  db: ProviderDb;
  table: OutboxName;
  /** Delivers one message or throws; must time out on its own. */
  send(payload: P): Promise<void>;
  log: FastifyBaseLogger;
  /** Safe fields for the log lines about a message (e.g. the event type), never personal data. */
  describe?(payload: P): Record<string, unknown>;
  /** E-mails carry reset links: once settled their content has no reason to stay in the database. */
  isPayloadErasedWhenSettled?: boolean;
  schedule?: RetrySchedule;
  pollIntervalMs?: number;
}

interface PendingRow {
  id: string;
  payload: unknown;
  attempts: number;
  created_at: Date;
}

const BATCH_SIZE = 20;

/**
 * Delivers an outbox at least once: right after the change that wrote a message (deliver), and for
 * everything that failed or was left behind, in a background pass with exponential backoff. A row is
 * claimed (next_attempt_at pushed into the future) before it is sent, so two passes or two instances
 * do not send it at the same time; the receivers deduplicate anyway.
 */
export class OutboxRelay<P> {
  readonly #options: OutboxRelayOptions<P>;
  readonly #schedule: RetrySchedule;
  readonly #inFlight = new Set<Promise<unknown>>();
  #timer: NodeJS.Timeout | undefined;
  #isPassRunning = false;

  constructor(options: OutboxRelayOptions<P>) {
    this.#options = options;
    this.#schedule = options.schedule ?? DEFAULT_RETRY_SCHEDULE;
  }

  /**
   * Delivers messages this process has just written, in the given order; what fails is retried in the
   * background. Resolves when all are attempted; never rejects, so callers may leave it running.
   */
  async deliver(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    return this.#track(this.#deliverInOrder(ids));
  }

  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      void this.runDuePass();
    }, this.#options.pollIntervalMs ?? 500);
    this.#timer.unref();
  }

  /** Stops polling and waits for deliveries under way (each is bounded by its own timeout). */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  /** One background pass over the due rows; returns how many were attempted. */
  async runDuePass(): Promise<number> {
    if (this.#isPassRunning) return 0;
    this.#isPassRunning = true;
    try {
      return await this.#track(this.#runDuePass());
    } finally {
      this.#isPassRunning = false;
    }
  }

  async #runDuePass(): Promise<number> {
    const { db, table, log } = this.#options;
    let rows: PendingRow[];
    try {
      const due = db
        .selectFrom(table)
        .select('id')
        .where('delivered_at', 'is', null)
        .where('given_up_at', 'is', null)
        .where('next_attempt_at', '<=', new Date())
        .orderBy('created_at')
        .limit(BATCH_SIZE)
        .forUpdate()
        .skipLocked();
      rows = await db
        .updateTable(table)
        .set({ next_attempt_at: new Date(Date.now() + CLAIM_LEASE_MS) })
        .where('id', 'in', due)
        .returning(['id', 'payload', 'attempts', 'created_at'])
        .execute();
    } catch (error) {
      log.warn({ err: loggableError(error), outbox: table }, 'reading the outbox failed');
      return 0;
    }
    rows.sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
    for (const row of rows) await this.#attempt(row);
    return rows.length;
  }

  async #deliverInOrder(ids: readonly string[]): Promise<void> {
    const { db, table, log } = this.#options;
    for (const id of ids) {
      try {
        const row = await db
          .selectFrom(table)
          .select(['id', 'payload', 'attempts', 'created_at'])
          .where('id', '=', id)
          .where('delivered_at', 'is', null)
          .where('given_up_at', 'is', null)
          .executeTakeFirst();
        if (row) await this.#attempt(row);
      } catch (error) {
        log.warn({ err: loggableError(error), outbox: table }, 'reading the outbox failed');
      }
    }
  }

  async #attempt(row: PendingRow): Promise<void> {
    const { db, table, log, send, describe, isPayloadErasedWhenSettled } = this.#options;
    const payload = row.payload as P;
    const attempts = row.attempts + 1;
    const context = { outbox: table, messageId: row.id, attempts, ...describe?.(payload) };
    const erased = isPayloadErasedWhenSettled ? { payload: '{}' } : {};
    try {
      await send(payload);
    } catch (error) {
      const reason = safeReason(error);
      const isGivingUp = Date.now() - row.created_at.getTime() >= this.#schedule.giveUpAfterMs;
      const now = Date.now();
      await db
        .updateTable(table)
        .set({
          attempts,
          last_error: reason,
          ...(isGivingUp
            ? { given_up_at: new Date(now), ...erased }
            : { next_attempt_at: new Date(now + retryDelayMs(attempts, this.#schedule)) }),
        })
        .where('id', '=', row.id)
        .where('delivered_at', 'is', null)
        .execute()
        .catch((updateError: unknown) =>
          log.warn({ err: loggableError(updateError), ...context }, 'outbox update failed'),
        );
      if (isGivingUp) log.error({ ...context, reason }, 'outbox message undeliverable, giving up');
      else log.warn({ ...context, reason }, 'outbox delivery failed, will retry');
      return;
    }
    await db
      .updateTable(table)
      .set({ attempts, delivered_at: new Date(), last_error: null, ...erased })
      .where('id', '=', row.id)
      .execute()
      .catch((updateError: unknown) =>
        log.warn({ err: loggableError(updateError), ...context }, 'outbox update failed'),
      );
  }

  #track<T>(promise: Promise<T>): Promise<T> {
    this.#inFlight.add(promise);
    const untrack = () => this.#inFlight.delete(promise);
    promise.then(untrack, untrack);
    return promise;
  }
}

/** What a log line and last_error may say about a failure: our own safe text or an error code. */
function safeReason(error: unknown): string {
  if (error instanceof DeliveryError) return error.message;
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const cause = (error as { cause?: { code?: unknown } }).cause?.code;
    if (typeof code === 'string') return code;
    if (typeof cause === 'string') return cause;
    return error.name;
  }
  return 'unknown error';
}
