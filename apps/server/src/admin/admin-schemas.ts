import { LANGUAGES, registerUserBodySchema, SUBDOMAIN_PATTERN } from '@concierge/contracts';
import { z } from 'zod';
import type { AdminAuditAction, AdminAuditOutcome, RegistrationCodeStatus } from '../db/schema';

// The operators' admin API (/api/admin/…): payloads and answers, shared by the routes and the CLI.
// They live in apps/server because nothing else speaks this API.

export const CODE_STATUSES = [
  'unused',
  'pending',
  'used',
  'revoked',
] as const satisfies readonly RegistrationCodeStatus[];
export const MAX_CODES_PER_REQUEST = 10_000;

const tenant = z.string().regex(SUBDOMAIN_PATTERN, 'must be a tenant subdomain');
const uuid = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i, 'must be a version-4 UUID')
  .transform((value) => value.toLowerCase());
const limit = z.coerce.number().int().min(1).max(MAX_CODES_PER_REQUEST).default(1000);
const offset = z.coerce.number().int().min(0).default(0);

export const createCodesBodySchema = z.strictObject({
  tenant,
  count: z.number().int().min(1).max(MAX_CODES_PER_REQUEST).default(1),
});

export const listCodesQuerySchema = z.object({
  tenant: tenant.optional(),
  status: z.enum(CODE_STATUSES).optional(),
  limit,
  offset,
});

export const codeParamsSchema = z.object({ code: uuid });

export const createInvitationBodySchema = z.strictObject({
  tenant,
  // The address rule registration applies: trimmed, the spec's pattern, lower-cased.
  email: registerUserBodySchema.shape.email,
  language: z.enum(LANGUAGES).optional(),
});

export const listInvitationsQuerySchema = z.object({ tenant: tenant.optional(), limit, offset });

export const invitationParamsSchema = z.object({ id: uuid });

export const MAX_AUDIT_ENTRIES_PER_PAGE = 1000;

/** Newest first; `before` is the `next` of the page before (the entries older than that id). */
export const listAuditQuerySchema = z.object({
  tenant: tenant.optional(),
  limit: z.coerce.number().int().min(1).max(MAX_AUDIT_ENTRIES_PER_PAGE).default(100),
  before: z.coerce.number().int().min(1).optional(),
});

/** The account by its e-mail, normalised as the lock keeps it (trimmed, lower-cased). */
export const unlockAccountBodySchema = z.strictObject({ email: registerUserBodySchema.shape.email });

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

export interface AdminInvitation {
  id: string;
  tenant: string;
  email: string;
  code: string;
  codeStatus: RegistrationCodeStatus;
  language: string;
  createdAt: string;
  revokedAt: string | null;
  /** The link the invitation e-mail carries (code, e-mail and invite id filled in). */
  registerUrl: string;
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
  /** The first 8 hex of SHA-256 of the admin token the call came with. */
  token: string;
  /** The call's X-Request-Id: its line in the request log. */
  requestId: string;
  action: AdminAuditAction;
  tenant: string | null;
  /** The code, the invitation id or the account's e-mail; null for codes.create. */
  target: string | null;
  /** How many codes codes.create made. */
  amount: number | null;
  outcome: AdminAuditOutcome;
}

export interface AdminAuditPage {
  /** Newest first. */
  entries: AdminAuditEntry[];
  /** `before` for the next, older page; null when there is none. */
  next: number | null;
}
