import type { PageSignInRequest } from '@concierge/contracts';
import { type Kysely, prepared, sql } from '@concierge/database';
import type { ServerTables } from '../db/schema';

/** Longer than a sign-in request lives at cidaas; the housekeeping forgets older ones. */
export const SIGN_IN_REQUEST_RETENTION_HOURS = 24;

// Request ids are opaque to us (cidaas: UUIDs); anything else is not worth a database round trip.
const REQUEST_ID = /^[A-Za-z0-9._~-]{1,200}$/;

/** Request ids this instance wrote lately: a page reloaded with the same id writes nothing again. */
const REMEMBERED_MAX = 10_000;

/**
 * Which tenant a provider request id was served for. cidaas sends a failed sign-in back to the
 * hosted page with the request id but no `subdomain` (cidaas-facts.md, "Hosted-page login"): the
 * server then finds the tenant here, so that brand and language survive the failed attempt.
 */
export class SignInRequests {
  readonly #remembered = new Set<string>();

  constructor(private readonly db: Kysely<ServerTables>) {}

  /**
   * The tenant first seen with this request id; a later, different one does not replace it. Only a
   * request the provider confirmed (its client info answered, ssr/page-sign-in-request.ts): a made-up
   * id writes nothing, so visitors cannot fill the table with ids of their own.
   */
  async remember(confirmed: PageSignInRequest, tenant: string): Promise<void> {
    const { requestId } = confirmed;
    if (!isRequestId(requestId) || this.#remembered.has(requestId)) return;
    // Every page a tenant arrives at with a new request id runs it: written out rather than built
    // (Kysely's builder and compiler would run per request too), and prepared.
    const insert = sql`insert into sign_in_requests (request_id, tenant, created_at)
      values (${requestId}, ${tenant}, now()) on conflict (request_id) do nothing`;
    await this.db.executeQuery(prepared(insert.compile(this.db)));
    if (this.#remembered.size >= REMEMBERED_MAX) this.#remembered.clear();
    this.#remembered.add(requestId);
  }

  async tenantOf(requestId: unknown): Promise<string | undefined> {
    if (!isRequestId(requestId)) return undefined;
    const row = await this.db
      .selectFrom('sign_in_requests')
      .select('tenant')
      .where('request_id', '=', requestId)
      .executeTakeFirst();
    return row?.tenant;
  }
}

/** Housekeeping: forgets request ids long expired at the provider. */
export async function pruneSignInRequests(
  db: Kysely<ServerTables>,
  olderThanHours = SIGN_IN_REQUEST_RETENTION_HOURS,
): Promise<void> {
  await db
    .deleteFrom('sign_in_requests')
    .where('created_at', '<', new Date(Date.now() - olderThanHours * 3600 * 1000))
    .execute();
}

function isRequestId(value: unknown): value is string {
  return typeof value === 'string' && REQUEST_ID.test(value);
}
