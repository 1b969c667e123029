// Kysely table types of the server's schema, one interface per table.
import type { Generated } from '@concierge/database';
import type { ColumnType } from 'kysely';

export interface RateLimitsTable {
  key: string;
  window_start: Date;
  hits: number;
}

/** The mirror of the provider's failed-login count, per tenant and normalised e-mail. */
export interface FailedLoginCountersTable {
  tenant: string;
  email: string;
  counter: number;
  updated_at: Date;
}

/** Ids of webhook events already applied: delivery is at least once. */
export interface ProcessedWebhookEventsTable {
  id: string;
  received_at: Date;
}

/** Which account a reset link belongs to, recorded when the server started the reset. */
export interface PasswordResetRequestsTable {
  /** SHA-256 of the reset request id (rprq); the id itself is a secret of the link. */
  rprq_hash: string;
  email: string;
  created_at: Date;
  /** An accept for this link had an unknown outcome (the provider's answer was lost). */
  accept_unknown_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export type RegistrationCodeStatus = 'unused' | 'pending' | 'used' | 'revoked';

/** A registration code (spec §5): unused → pending (claimed) → used, or revoked by an operator. */
export interface RegistrationCodesTable {
  /** A lower-case version-4 UUID. */
  code: string;
  /** The tenant's subdomain. */
  tenant: string;
  status: RegistrationCodeStatus;
  claimed_email: string | null;
  claimed_at: Date | null;
  claimed_language: string | null;
  sub: string | null;
  used_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
}

/** An invitation binds one code to one e-mail. */
export interface InvitationsTable {
  id: string;
  tenant: string;
  /** Normalised (trimmed, lower-case). */
  email: string;
  code: string;
  language: string;
  created_at: Date;
  revoked_at: Date | null;
}

/** An activation link; resending voids the older ones. */
export interface ActivationsTable {
  id: string;
  /** SHA-256 (hex) of the verification id in the link. */
  verification_hash: string;
  email: string;
  sub: string;
  tenant: string;
  language: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
  voided_at: Date | null;
}

/** E-mails waiting for (or done with) delivery by the outbox worker. */
export interface MailOutboxTable {
  id: string;
  /** What the mail is, for logs: 'activation' | 'invitation'. */
  kind: string;
  recipient: string;
  subject: string;
  html: string;
  text: string;
  created_at: Date;
  attempts: Generated<number>;
  next_attempt_at: Date | null;
  sent_at: Date | null;
  last_error: string | null;
}

/** Concierge's lock of an account at the provider (accounts/account-locks.ts). */
export interface AccountLocksTable {
  /** Normalised. */
  email: string;
  sub: string | null;
  state: 'pending' | 'locked';
  requested_at: Date;
  locked_at: Date | null;
}

/** The tenant a provider request id was served for (tenants/sign-in-requests.ts). */
export interface SignInRequestsTable {
  request_id: string;
  tenant: string;
  created_at: Date;
}

export interface ServerTables {
  rate_limits: RateLimitsTable;
  registration_codes: RegistrationCodesTable;
  invitations: InvitationsTable;
  activations: ActivationsTable;
  mail_outbox: MailOutboxTable;
  failed_login_counters: FailedLoginCountersTable;
  processed_webhook_events: ProcessedWebhookEventsTable;
  password_reset_requests: PasswordResetRequestsTable;
  account_locks: AccountLocksTable;
  sign_in_requests: SignInRequestsTable;
}
