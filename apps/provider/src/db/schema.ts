import type { Database } from '@concierge/database';
import type { ColumnType, Kysely } from 'kysely';

/**
 * cidaas's user statuses (cidaas-facts.md, "Users"): self-registered users are VERIFIED at once;
 * DECLINED is set by an administrator (Concierge's own lock), BLOCKED by the brute-force protection.
 */
export const USER_STATUSES = ['PENDING', 'VERIFIED', 'DECLINED', 'BLOCKED'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** jsonb goes in as JSON text and comes back parsed by the driver. */
type Json<T> = ColumnType<T, string, string>;

export interface UsersTable {
  sub: string;
  email: string;
  password_hash: string;
  status: UserStatus;
  /** Separate from the status, as at cidaas: a VERIFIED user may still have an unverified e-mail. */
  email_verified: boolean;
  given_name: string | null;
  family_name: string | null;
  locale: string | null;
  mobile_number: string | null;
  roles: ColumnType<string[], string | undefined, string>;
  /** cidaas's groups of the user and their roles in each (`groups[{ groupId, roles }]`). */
  groups: ColumnType<{ groupId: string; roles: string[] }[], string | undefined, string>;
  /** Wrong passwords since the last success or unlock; may block (config PROVIDER_BLOCK_AFTER_FAILURES). */
  failed_login_attempts: ColumnType<number, number | undefined, number>;
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

/**
 * A message waiting to leave (webhook event or e-mail): written in the transaction of the change that
 * caused it, delivered afterwards, retried until delivered or given up (outbox/outbox-relay.ts).
 */
export interface OutboxTable {
  id: string;
  payload: Json<Record<string, unknown>>;
  attempts: ColumnType<number, number | undefined, number>;
  /** Also a lease: whoever is delivering a row pushes it into the future first. */
  next_attempt_at: Timestamp;
  delivered_at: Date | null;
  given_up_at: Date | null;
  last_error: string | null;
  created_at: Timestamp;
}

export interface PasswordResetRequestsTable {
  /** The reset request id (`rprq`) the e-mail link and the accept call carry. */
  rprq: string;
  /** sha256 of the exchange id: a database reader cannot use a stored request. */
  exchange_id_hash: string;
  sub: string;
  request_id: string;
  client_id: string | null;
  subdomain: string | null;
  created_at: Timestamp;
  expires_at: Date;
  used_at: Date | null;
}

export interface ProviderTables {
  users: UsersTable;
  oidc_payloads: OidcPayloadsTable;
  provider_keys: ProviderKeysTable;
  webhook_outbox: OutboxTable;
  mail_outbox: OutboxTable;
  password_reset_requests: PasswordResetRequestsTable;
}

export type OutboxName = 'webhook_outbox' | 'mail_outbox';

export type ProviderDb = Kysely<ProviderTables>;
export type ProviderDatabase = Database<ProviderTables>;

/** The provider's own schema on a shared PostgreSQL database (ARCHITECTURE §2). */
export const PROVIDER_SCHEMA = 'provider';
