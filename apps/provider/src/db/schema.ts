import type { Database } from '@concierge/database';
import type { ColumnType, Kysely } from 'kysely';

export const USER_STATUSES = ['PENDING', 'VERIFIED', 'DECLINED'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** jsonb goes in as JSON text and comes back parsed by the driver. */
type Json<T> = ColumnType<T, string, string>;

export interface UsersTable {
  sub: string;
  email: string;
  password_hash: string;
  status: UserStatus;
  given_name: string | null;
  family_name: string | null;
  locale: string | null;
  mobile_number: string | null;
  roles: ColumnType<string[], string | undefined, string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OidcPayloadsTable {
  kind: string;
  id: string;
  payload: Json<Record<string, unknown>>;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  expires_at: Date | null;
  consumed_at: Date | null;
}

export interface ProviderKeysTable {
  name: string;
  value: Json<unknown>;
  created_at: Timestamp;
}

export interface ProviderTables {
  users: UsersTable;
  oidc_payloads: OidcPayloadsTable;
  provider_keys: ProviderKeysTable;
}

export type ProviderDb = Kysely<ProviderTables>;
export type ProviderDatabase = Database<ProviderTables>;

/** The provider's own schema on a shared PostgreSQL database (ARCHITECTURE §2). */
export const PROVIDER_SCHEMA = 'provider';
