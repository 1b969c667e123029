import { randomUUID } from 'node:crypto';
import type { Kysely } from '@concierge/database';
import type { ServerTables } from '../db/schema';
import type { MailMessage } from '../mail/mail-message';

/**
 * Writes an e-mail to the outbox, due at once. Call it with the transaction that makes the change
 * the e-mail reports, so that both happen or neither does; the outbox worker sends it afterwards.
 */
export async function enqueueMail(trx: Kysely<ServerTables>, message: MailMessage): Promise<string> {
  const id = randomUUID();
  const now = new Date();
  await trx
    .insertInto('mail_outbox')
    .values({
      id,
      kind: message.kind,
      recipient: message.to,
      subject: message.subject,
      html: message.html,
      text: message.text,
      created_at: now,
      next_attempt_at: now,
    })
    .execute();
  return id;
}

/**
 * How long an e-mail given up on is kept (with its body, for an operator to see what did not go
 * out; concierge_mail_outbox_undeliverable counts it until then). Longer than any link in it lives
 * (ACTIVATION_LINK_TTL_HOURS at most 30 days).
 */
export const UNDELIVERABLE_MAIL_RETENTION_DAYS = 30;

/**
 * Housekeeping: sent e-mails after `sentRetentionDays` (SENT_MAIL_RETENTION_DAYS: the row keeps the
 * recipient and subject, its body is emptied once sent), undeliverable ones after a month; never one
 * still due.
 */
export async function pruneMailOutbox(db: Kysely<ServerTables>, sentRetentionDays: number): Promise<void> {
  const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 3600 * 1000);
  await db.deleteFrom('mail_outbox').where('sent_at', '<', daysAgo(sentRetentionDays)).execute();
  await db
    .deleteFrom('mail_outbox')
    .where('sent_at', 'is', null)
    .where('next_attempt_at', 'is', null)
    .where('created_at', '<', daysAgo(UNDELIVERABLE_MAIL_RETENTION_DAYS))
    .execute();
}
