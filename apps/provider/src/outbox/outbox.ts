import type { OutboxName, ProviderDb } from '../db/schema';

/**
 * How long a row written by a request belongs to that request: the background relay leaves it alone
 * meanwhile, so the request can deliver it at once without a second, parallel delivery. Longer than
 * any single delivery attempt may take; if the process dies, the row is simply picked up later.
 */
export const CLAIM_LEASE_MS = 60_000;

/**
 * Writes messages to an outbox. Call it with the transaction that makes the change the messages
 * report, so that both happen or neither does; hand the ids to OutboxRelay.deliver after the commit.
 */
export async function enqueue(
  trx: ProviderDb,
  table: OutboxName,
  messages: readonly { id: string; payload: object }[],
): Promise<string[]> {
  if (messages.length === 0) return [];
  const claimedUntil = new Date(Date.now() + CLAIM_LEASE_MS);
  await trx
    .insertInto(table)
    .values(
      messages.map((message, index) => ({
        id: message.id,
        payload: JSON.stringify(message.payload),
        next_attempt_at: claimedUntil,
        // Distinct creation times keep the order in which one change wrote several messages.
        created_at: new Date(Date.now() + index),
      })),
    )
    .execute();
  return messages.map((message) => message.id);
}

/** Delivered or given-up messages are kept a week for looking into problems, then deleted. */
export async function deleteSettledMessages(db: ProviderDb, table: OutboxName, now = new Date()) {
  const before = new Date(now.getTime() - 7 * 24 * 60 * 60 * 1000);
  const result = await db
    .deleteFrom(table)
    .where((eb) =>
      eb.or([
        eb.and([eb('delivered_at', 'is not', null), eb('delivered_at', '<', before)]),
        eb.and([eb('given_up_at', 'is not', null), eb('given_up_at', '<', before)]),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
