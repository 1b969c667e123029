// Kysely table types of the server's schema, one interface per table.

import type { AdminAuditAction, AdminAuditOutcome, RegistrationCodeStatus } from '@concierge/contracts';
import type { Generated } from '@concierge/database';
import type { ColumnType } from 'kysely';

export type { AdminAuditAction, AdminAuditOutcome, RegistrationCodeStatus };

export interface RateLimitsTable {
  key: string;
  window_start: Date;
  hits: number;
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

/** A column added to a table with rows: null for the rows before it, and optional on insert. */
type AddedColumn<T> = ColumnType<T | null, T | null | undefined, T | null>;

/** The codes made for the units of one building (admin/batches-admin.ts). */
export interface CodeBatchesTable {
  id: string;
  /** The tenant's subdomain. */
  tenant: string;
  building: string;
  created_at: Date;
  /** When its codes stop registering (each code keeps a copy); null: never. */
  expires_at: Date | null;
  /** When an operator revoked the batch's unused codes. */
  revoked_at: Date | null;
}

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
  /** The batch of a building's letters it was made in; null for a code made alone or by count. */
  batch_id: AddedColumn<string>;
  /** The unit (flat) its letter is for, unique within the batch. */
  unit: AddedColumn<string>;
  /** Whom the letter names. */
  recipient_name: AddedColumn<string>;
  /** The language the letter is written in (contracts' LANGUAGES). */
  letter_language: AddedColumn<string>;
  /** From then on an unused code registers no one; null: never. */
  expires_at: AddedColumn<Date>;
}

/**
 * An invitation binds one code to one e-mail. It expires with its code (registration_codes'
 * expires_at); a tenant holds at most one open invitation per e-mail (admin/invitations-admin.ts).
 */
export interface InvitationsTable {
  id: string;
  tenant: string;
  /** Normalised (trimmed, lower-case). */
  email: string;
  code: string;
  language: string;
  created_at: Date;
  /** Withdrawn by an operator, or voided by a newer invitation for the same e-mail. */
  revoked_at: Date | null;
}

/**
 * An invitee's request for a new invitation, made from the link of one that was withdrawn or has
 * expired (registration/new-invitation-request.ts): at most one per invitation.
 */
export interface InvitationRequestsTable {
  id: string;
  tenant: string;
  /** The invitation's e-mail (normalised), never what the request was sent with. */
  email: string;
  invitation_id: string;
  created_at: Date;
  /** When a new invitation went to this e-mail of the tenant (a re-send, or a new one). */
  handled_at: Date | null;
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
  /** What the mail is, for logs: MailMessage['kind'] (mail/mail-message.ts). */
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

export type LockState = 'none' | 'requested' | 'locked';

/**
 * One account's protection (accounts/protection/): what counts as its failed sign-ins, and
 * Concierge's lock of it at the provider. Keyed by the account, not by tenant: the provider's
 * account is one for every client.
 */
export interface AccountProtectionTable {
  /** Normalised; failures of e-mails without an account are kept alike. */
  email: string;
  /** As the provider named it when looked up by this e-mail; never taken from an event. */
  sub: string | null;
  /** The event time of the last success, activation or reset: failures up to it no longer count. */
  counted_since: Date;
  /** none; requested (the count reached the limit, the provider may not have it yet); locked. */
  lock_state: LockState;
  /** The event time of the failure that asked for the lock: a reset older than this leaves it. */
  lock_requested_at: Date | null;
  locked_at: Date | null;
  /** Concierge set the provider's DECLINED itself (else it found one, or there was no account). */
  lock_is_ours: boolean;
  /** A lock call's answer was lost: a DECLINED found afterwards is Concierge's own. */
  lock_attempt_unknown: boolean;
  /**
   * The event time of the account's last proof of being active: a successful sign-in, the
   * provider's activation, or a completed reset (which activates, spec §4); never the office's
   * unlock. What the admin API calls a code's account "activated" (admin/code-states.ts).
   */
  seen_active_at: Date | null;
}

/** One failed sign-in of an account, at the event's own time; counted while after counted_since. */
export interface AccountFailuresTable {
  /** The event's key (processed_webhook_events). */
  event_key: string;
  email: string;
  /** The subdomain (or unknown client id) it came through: for logs and metrics only. */
  tenant: string;
  occurred_at: Date;
}

/** The tenant a provider request id was served for (tenants/sign-in-requests.ts). */
export interface SignInRequestsTable {
  request_id: string;
  tenant: string;
  created_at: Date;
}

/** One change made through the admin API, in the transaction of the change itself. */
export interface AdminAuditTable {
  /** A bigint identity, in the order of insertion (pg reads int8 as text). */
  id: Generated<string>;
  at: Date;
  /** Which admin token: the first 8 hex of its SHA-256, never the token; null for a console user. */
  token_fingerprint: string | null;
  /** The console user who made the change; null for a call with the admin token. */
  user_email: AddedColumn<string>;
  user_sub: AddedColumn<string>;
  /** The call's X-Request-Id, the reqId of its log line. */
  request_id: string;
  action: AdminAuditAction;
  /** The tenant's subdomain; null for an account (unlock), which belongs to no one tenant. */
  tenant: string | null;
  /**
   * The code, the invitation id, the batch id, or the account's normalised e-mail; null for
   * codes.create and codes.revoke (many codes).
   */
  target: string | null;
  /** How many codes codes.create and batch.create made, and batch.revoke and codes.revoke revoked. */
  amount: number | null;
  outcome: AdminAuditOutcome;
}

/** A console sign-in on its way through the provider (console/console-sign-in.ts). */
export interface ConsoleSignInsTable {
  state_hash: string;
  code_verifier: string;
  nonce: string;
  language: string;
  browser_hash: string;
  created_at: Date;
}

/** A signed-in console user (console/console-sessions.ts). */
export interface ConsoleSessionsTable {
  id_hash: string;
  sub: string;
  email: string;
  name: string | null;
  role: 'operator' | 'manager';
  /** The tenants a manager may see; empty for an operator, who sees every tenant. */
  tenants: string[];
  csrf_token: string;
  language: string;
  /** The sign-in's ID token: the provider's sign-out names the session by it. */
  id_token: string | null;
  /** What the last form's post did, said once on the next page (ConsoleFlash). */
  flash: ColumnType<unknown | null, string | null | undefined, string | null>;
  created_at: Date;
  last_seen_at: Date;
}

/**
 * A tenant's brand as the console edits it: drafts and published revisions (migration
 * 0810_tenant_brands, tenants/brand-store.ts). The newest published row of a tenant is its brand.
 */
export interface TenantBrandsTable {
  tenant: string;
  /** Per tenant, drafts and published alike: one number names one content for good. */
  revision: number;
  state: 'draft' | 'published';
  display_name: string;
  primary_color: string;
  theme_preset: string;
  logo: Buffer;
  /** image/svg+xml, image/png or image/jpeg, checked against the bytes' magic numbers. */
  logo_type: string;
  /** The stylesheet's text; null: none. */
  stylesheet: string | null;
  /** As the registry file's `contact` (JSON); null: none. */
  contact: ColumnType<unknown, string | null, string | null>;
  /** As the registry file's `flags` (JSON). */
  flags: ColumnType<unknown, string, string>;
  /** Who saved it, as the caller named them (the console user's e-mail). */
  saved_by: string;
  saved_at: Date;
  published_at: Date | null;
}

export interface ServerTables {
  rate_limits: RateLimitsTable;
  code_batches: CodeBatchesTable;
  registration_codes: RegistrationCodesTable;
  invitations: InvitationsTable;
  invitation_requests: InvitationRequestsTable;
  activations: ActivationsTable;
  mail_outbox: MailOutboxTable;
  processed_webhook_events: ProcessedWebhookEventsTable;
  password_reset_requests: PasswordResetRequestsTable;
  account_protection: AccountProtectionTable;
  account_failures: AccountFailuresTable;
  sign_in_requests: SignInRequestsTable;
  admin_audit: AdminAuditTable;
  console_sign_ins: ConsoleSignInsTable;
  console_sessions: ConsoleSessionsTable;
  tenant_brands: TenantBrandsTable;
}
