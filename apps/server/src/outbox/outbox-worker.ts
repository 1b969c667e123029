import { type Kysely, loggableError, retryDelayMs } from '@concierge/database';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerTables } from '../db/schema';
import type { MailMessage } from '../mail/mail-message';
import type { MailTransport } from '../mail/mail-transport';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy';

export interface OutboxWorkerOptions {
  db: Kysely<ServerTables>;
  transport: MailTransport;
  log: FastifyBaseLogger;
  retry?: RetryPolicy;
  batchSize?: number;
  /**
   * How long a claimed row belongs to the instance that claimed it. Longer than one send may take
   * (the transport's timeouts add up to 25 s); if the instance dies meanwhile, the row is simply
   * picked up again afterwards.
   */
  leaseMs?: number;
}

interface ClaimedMail {
  id: string;
  kind: string;
  recipient: string;
  subject: string;
  html: string;
  text: string;
  attempts: number;
}

export interface OutboxPassResult {
  sent: number;
  failed: number;
}

/**
 * Sends what the outbox holds. Each pass claims due rows in one statement — `for update skip locked`
 * plus pushing next_attempt_at past the lease — so that two instances never take the same row and
 * no e-mail goes out twice. Failures are retried with exponential backoff up to a limit.
 */
export class MailOutboxWorker {
  readonly #options: Required<OutboxWorkerOptions>;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<OutboxPassResult> | undefined;

  constructor(options: OutboxWorkerOptions) {
    this.#options = { retry: DEFAULT_RETRY_POLICY, batchSize: 20, leaseMs: 120_000, ...options };
  }

  /** Sends everything due now; a pass already under way is joined, not doubled. */
  runOnce(): Promise<OutboxPassResult> {
    this.#running ??= this.#drain().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  start(intervalMs: number): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      this.runOnce().catch((error: unknown) =>
        this.#options.log.warn({ err: loggableError(error) }, 'outbox pass failed'),
      );
    }, intervalMs);
    // It must not keep the process alive on its own.
    this.#timer.unref();
  }

  /** Stops polling and waits for a pass under way (each send is bounded by the transport's timeouts). */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running?.catch(() => undefined);
  }

  async #drain(): Promise<OutboxPassResult> {
    const total = { sent: 0, failed: 0 };
    for (;;) {
      const rows = await this.#claimDue();
      for (const row of rows) {
        if (await this.#attempt(row)) total.sent += 1;
        else total.failed += 1;
      }
      if (rows.length < this.#options.batchSize) return total;
    }
  }

  async #claimDue(): Promise<ClaimedMail[]> {
    const { db, batchSize, leaseMs } = this.#options;
    const now = new Date();
    const due = db
      .selectFrom('mail_outbox')
      .select('id')
      .where('sent_at', 'is', null)
      .where('next_attempt_at', '<=', now)
      .orderBy('next_attempt_at')
      .limit(batchSize)
      .forUpdate()
      .skipLocked();
    return db
      .updateTable('mail_outbox')
      .set({ next_attempt_at: new Date(now.getTime() + leaseMs) })
      .where('id', 'in', due)
      .where('sent_at', 'is', null)
      .returning(['id', 'kind', 'recipient', 'subject', 'html', 'text', 'attempts'])
      .execute();
  }

  async #attempt(row: ClaimedMail): Promise<boolean> {
    const { db, transport, log, retry } = this.#options;
    const attempts = row.attempts + 1;
    const context = { mailId: row.id, kind: row.kind, attempts };
    try {
      await transport.send({
        kind: row.kind as MailMessage['kind'],
        to: row.recipient,
        subject: row.subject,
        html: row.html,
        text: row.text,
      });
    } catch (error) {
      const reason = safeReason(error);
      const isGivingUp = attempts >= retry.maxAttempts;
      await db
        .updateTable('mail_outbox')
        .set({
          attempts,
          last_error: reason,
          next_attempt_at: isGivingUp ? null : new Date(Date.now() + retryDelayMs(attempts, retry)),
        })
        .where('id', '=', row.id)
        .execute();
      if (isGivingUp) log.error({ ...context, reason }, 'e-mail undeliverable, giving up');
      else log.warn({ ...context, reason }, 'e-mail delivery failed, will retry');
      return false;
    }
    // The body goes once sent: an activation link is a secret the database has no reason to keep.
    await db
      .updateTable('mail_outbox')
      .set({ attempts, sent_at: new Date(), next_attempt_at: null, last_error: null, html: '', text: '' })
      .where('id', '=', row.id)
      .execute();
    log.info(context, 'e-mail sent');
    return true;
  }
}

/**
 * What a log line and last_error may say about a failure: nodemailer's error code and the SMTP
 * reply code, never the message (a relay's reply may quote the recipient address).
 */
function safeReason(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
  const parts = [typeof code === 'string' ? code : error.name];
  if (typeof responseCode === 'number') parts.push(String(responseCode));
  return parts.join(' ');
}
