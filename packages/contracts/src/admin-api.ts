import type { Language } from './language';

// The operators' admin API (/api/admin/…, apps/server/src/routes/admin.ts): its answers, read by the
// server's routes, its CLI and the console (apps/console). The request schemas stay with the server.

/**
 * The admin API's own error codes (apps/server/src/routes/admin.ts), read by operators, the CLI and
 * the console, which words each in its four languages (its typecheck fails on one it lacks).
 */
export const ADMIN_ERROR_CODES = [
  'unknown_tenant',
  'forbidden_tenant',
  'operator_only',
  'code_not_found',
  'code_not_revocable',
  'batch_not_found',
  'no_unused_codes',
  'logo_not_printable',
  'invitation_not_found',
  'invitation_already_used',
  'email_already_registered_db',
  'quota_exceeded',
  'account_not_found',
  'locked_by_provider',
  'no_brand_draft',
  'brand_draft_changed',
] as const;
export type AdminErrorCode = (typeof ADMIN_ERROR_CODES)[number];

/** A registration code's own status, as its table holds it. */
export type RegistrationCodeStatus = 'unused' | 'pending' | 'used' | 'revoked';

/** What an admin API call changed (admin/audit-log.ts). */
export type AdminAuditAction =
  | 'codes.create'
  | 'code.revoke'
  | 'invitation.create'
  | 'invitation.revoke'
  | 'invitation.resend'
  | 'account.unlock'
  | 'batch.create'
  | 'batch.revoke'
  | 'codes.revoke'
  | 'brand.save_draft'
  | 'brand.publish'
  | 'brand.discard_draft';

/** changed; or unchanged: a repeat that found it done already (revoked, not locked). */
export type AdminAuditOutcome = 'changed' | 'unchanged';

/** What unlocking an account did (POST /accounts/unlock). */
export interface AdminUnlockedAccount {
  email: string;
  /** Concierge or the provider held a lock that is lifted now; false when there was none. */
  wasLocked: boolean;
  /** The failed sign-ins that counted and count no more. */
  failedSignInsCleared: number;
}

export interface AdminCode {
  code: string;
  tenant: string;
  status: RegistrationCodeStatus;
  claimedEmail: string | null;
  sub: string | null;
  createdAt: string;
  usedAt: string | null;
  revokedAt: string | null;
  /** The link a letter prints: the register page with this code and the tenant. */
  registerUrl: string;
}

/**
 * What became of a code, as an office asks it (admin/code-states.ts): unused, pending (a registration
 * in flight), used (registered, not yet activated), activated, locked (its account, now), revoked,
 * expired (unused past its expiry).
 */
export const CODE_STATES = [
  'unused',
  'pending',
  'used',
  'activated',
  'locked',
  'revoked',
  'expired',
] as const;
export type CodeState = (typeof CODE_STATES)[number];

/** A code of a batch: its letter's unit, name and language, and its state. */
export interface AdminBatchCode extends AdminCode {
  unit: string;
  name: string | null;
  language: Language;
  expiresAt: string | null;
  state: CodeState;
}

/**
 * How many codes are in each state. codes = unused + pending + used + revoked + expired; `used`
 * counts every registration, `activated` and `locked` those of them activated and locked now (a
 * code's own state shows locked before activated before used).
 */
export interface CodeFigures {
  codes: number;
  unused: number;
  pending: number;
  used: number;
  activated: number;
  locked: number;
  revoked: number;
  expired: number;
}

export interface AdminBatch {
  id: string;
  tenant: string;
  building: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  figures: CodeFigures;
}

/** A batch with every code (POST /batches, GET /batches/:id). */
export interface AdminBatchDetail {
  batch: AdminBatch;
  codes: AdminBatchCode[];
}

/** What revoking a batch did (POST /batches/:id/revoke). */
export interface AdminBatchRevocation extends AdminBatchDetail {
  /** Unused codes revoked by this call (0 for a repeat). */
  revoked: number;
}

/** One tenant's figures (GET /figures): its codes, its open invitations and its accounts locked now. */
export interface TenantFigures extends CodeFigures {
  tenant: string;
  /** Neither withdrawn, expired nor registered with yet. */
  invitationsOpen: number;
}

export interface AdminInvitation {
  id: string;
  tenant: string;
  email: string;
  code: string;
  codeStatus: RegistrationCodeStatus;
  language: string;
  createdAt: string;
  /** From then on it registers no one (its code's expiry); null for one made before invitations expired. */
  expiresAt: string | null;
  /** Withdrawn by an operator, or replaced by a newer invitation for the same e-mail. */
  revokedAt: string | null;
  /** The link the invitation e-mail carries (code, e-mail and invite id filled in). */
  registerUrl: string;
}

/** What re-sending an invitation did (POST /invitations/:id/resend). */
export interface AdminInvitationResend {
  /** The new invitation: a new id, code and expiry, mailed to the same e-mail in the same language. */
  invitation: AdminInvitation;
  /** The one re-sent, withdrawn now. */
  previous: AdminInvitation;
}

/** An invitee's request for a new invitation, not yet answered by one (GET /invitation-requests). */
export interface AdminInvitationRequest {
  id: string;
  tenant: string;
  /** The invitation's e-mail. */
  email: string;
  /** The withdrawn or expired invitation it was asked from: `invitations resend` takes it. */
  invitationId: string;
  createdAt: string;
}

export interface AdminList<T> {
  items: T[];
  /** How many match the filter in all; items holds at most `limit` of them from `offset`. */
  total: number;
}

/** One change made through the admin API (GET /audit), as admin/audit-log.ts records it. */
export interface AdminAuditEntry {
  id: number;
  at: string;
  /** The first 8 hex of SHA-256 of the admin token the call came with; null for a console user's call. */
  token: string | null;
  /** The console user who made the change (their e-mail); null for a call with the admin token. */
  user: string | null;
  /** The call's X-Request-Id: its line in the request log. */
  requestId: string;
  action: AdminAuditAction;
  tenant: string | null;
  /** The code, the invitation id, the batch id or the account's e-mail; null for codes.create and codes.revoke. */
  target: string | null;
  /** How many codes codes.create and batch.create made, and batch.revoke and codes.revoke revoked. */
  amount: number | null;
  outcome: AdminAuditOutcome;
}

export interface AdminAuditPage {
  /** Newest first. */
  entries: AdminAuditEntry[];
  /** `before` for the next, older page; null when there is none. */
  next: number | null;
}
