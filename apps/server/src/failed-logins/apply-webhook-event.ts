import type { WebhookEventType } from '@concierge/contracts';
import type { Kysely } from '@concierge/database';
import { requestAccountLock } from '../accounts/account-locks';
import {
  clearFailedLogins,
  countFailedLogin,
  LOCKED_COUNTER,
  markAccountLocked,
} from '../accounts/failed-login-counters';
import type { ServerTables } from '../db/schema';

/** A provider event reduced to what the counter needs (provider-protocol.md, "Webhooks"). */
export interface CounterEvent {
  id: string;
  eventtype: WebhookEventType;
  /** The tenant's subdomain, or the event's client id when no tenant has that client. */
  tenant: string;
  /** Normalised. */
  email: string;
  /** The account's sub when the event named it. */
  sub?: string;
}

/** How long an event id is remembered; the provider gives up retrying long before. */
export const PROCESSED_EVENT_RETENTION_DAYS = 30;

/**
 * Applies one event to the counter, at most once per event id (the third failure also asks for the
 * account's lock, which the caller then applies at the provider): the id's row and the counter change
 * commit together, so a retried delivery — also one arriving in parallel, which waits on the id's
 * unique index until the first commits — finds the id and changes nothing.
 */
export async function applyWebhookEvent(
  db: Kysely<ServerTables>,
  event: CounterEvent,
): Promise<'applied' | 'duplicate'> {
  return db.transaction().execute(async (trx) => {
    const isFirstDelivery = await trx
      .insertInto('processed_webhook_events')
      .values({ id: event.id, received_at: new Date() })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!isFirstDelivery) return 'duplicate';
    switch (event.eventtype) {
      case 'LOGIN_FAILURE':
        if ((await countFailedLogin(trx, event.tenant, event.email)) >= LOCKED_COUNTER) {
          await requestAccountLock(trx, { email: event.email, sub: event.sub });
        }
        break;
      case 'ACCOUNT_LOCKED':
        await markAccountLocked(trx, event.tenant, event.email);
        break;
      case 'LOGIN_WITH_CIDAAS':
      case 'ACCOUNT_ACTIVATED':
      case 'PASSWORD_RESET':
        await clearFailedLogins(trx, event.email);
        break;
    }
    return 'applied';
  });
}

/** Housekeeping: forgets event ids older than the retention. */
export async function pruneProcessedWebhookEvents(
  db: Kysely<ServerTables>,
  olderThanDays = PROCESSED_EVENT_RETENTION_DAYS,
): Promise<void> {
  await db
    .deleteFrom('processed_webhook_events')
    .where('received_at', '<', new Date(Date.now() - olderThanDays * 24 * 3600 * 1000))
    .execute();
}
