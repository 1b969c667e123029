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
