import { sql } from '@concierge/database';
import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';
import type { ProviderDb } from '../db/schema';

/**
 * oidc-provider's storage over the `oidc_payloads` table. One adapter per model name (`kind`). The
 * built-in memory adapter is a per-process LRU of 1000 entries (STACK-NOTES), so sessions and codes
 * would vanish under load or on restart.
 */
export class DatabaseAdapter implements Adapter {
  readonly #db: ProviderDb;
  readonly #kind: string;

  constructor(db: ProviderDb, kind: string) {
    this.#db = db;
    this.#kind = kind;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const row = {
      payload: JSON.stringify(payload),
      grant_id: payload.grantId ?? null,
      user_code: payload.userCode ?? null,
      // Only sessions are looked up by uid (findByUid); other models use the word for something else.
      uid: this.#kind === 'Session' ? (payload.uid ?? null) : null,
      expires_at: typeof expiresIn === 'number' ? new Date(Date.now() + expiresIn * 1000) : null,
      // A re-saved model starts unconsumed, as with the reference memory adapter.
      consumed_at: null,
    };
    await this.#db
      .insertInto('oidc_payloads')
      .values({ kind: this.#kind, id, ...row })
      .onConflict((conflict) => conflict.columns(['kind', 'id']).doUpdateSet(row))
      .execute();
  }

  find(id: string): Promise<AdapterPayload | undefined> {
    return this.#findWhere('id', id);
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.#findWhere('uid', uid);
  }

  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.#findWhere('user_code', userCode);
  }

  async consume(id: string): Promise<void> {
    await this.#db
      .updateTable('oidc_payloads')
      .set({ consumed_at: new Date() })
      .where('kind', '=', this.#kind)
      .where('id', '=', id)
      .execute();
  }

  async destroy(id: string): Promise<void> {
    await this.#db.deleteFrom('oidc_payloads').where('kind', '=', this.#kind).where('id', '=', id).execute();
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.#db
      .deleteFrom('oidc_payloads')
      .where('kind', '=', this.#kind)
      .where('grant_id', '=', grantId)
      .execute();
  }

  async #findWhere(column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> {
    const row = await this.#db
      .selectFrom('oidc_payloads')
      .select(['payload', 'consumed_at'])
      .where('kind', '=', this.#kind)
      .where(column, '=', value)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', new Date())]))
      .executeTakeFirst();
    if (!row) return undefined;
    const payload = row.payload as AdapterPayload;
    return row.consumed_at ? { ...payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : payload;
  }
}

export function createAdapterFactory(db: ProviderDb): AdapterFactory {
  return (kind) => new DatabaseAdapter(db, kind);
}

/** Expired rows are already invisible; this only keeps the table small. */
export async function deleteExpiredPayloads(db: ProviderDb, now = new Date()): Promise<number> {
  const result = await db.deleteFrom('oidc_payloads').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Revokes everything oidc-provider keeps for one account: its sessions, grants, authorization codes,
 * access and refresh tokens (each carries the `accountId`; tokens also the `grantId` of a grant of
 * the account), and sign-ins that finished but were not resumed yet. Call it with the transaction of
 * the change that demands it (a password reset). The next request with a removed session cookie gets
 * an empty session, so the browser must sign in again; removed tokens are refused as unknown.
 */
export async function revokeAccountPayloads(trx: ProviderDb, accountId: string): Promise<number> {
  const result = await trx
    .deleteFrom('oidc_payloads')
    .where((eb) =>
      eb.or([
        eb(sql<string>`payload->>'accountId'`, '=', accountId),
        eb(
          'grant_id',
          'in',
          eb
            .selectFrom('oidc_payloads as grants')
            .select('grants.id')
            .where('grants.kind', '=', 'Grant')
            .where(sql<string>`grants.payload->>'accountId'`, '=', accountId),
        ),
        eb.and([
          eb('kind', '=', 'Interaction'),
          eb(sql<string>`payload->'result'->'login'->>'accountId'`, '=', accountId),
        ]),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
