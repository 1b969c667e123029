import {
  FALLBACK_LANGUAGE,
  LANGUAGES,
  type Language,
  registerUserBodySchema,
  SUBDOMAIN_PATTERN,
} from '@concierge/contracts';
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
/** A building's letters in one batch; the largest estates have a few hundred flats. */
export const MAX_UNITS_PER_BATCH = 2000;
export const MAX_CODES_PER_SELECTION = 1000;
export const UNIT_MAX_LENGTH = 40;
export const BUILDING_MAX_LENGTH = 200;
export const NAME_MAX_LENGTH = 200;

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

export const listInvitationRequestsQuerySchema = z.object({ tenant: tenant.optional(), limit, offset });

/** One unit's letter: the unit (flat), whom it names and its language. */
export const batchUnitSchema = z.strictObject({
  unit: z.string().trim().min(1).max(UNIT_MAX_LENGTH),
  name: z.string().trim().max(NAME_MAX_LENGTH).optional(),
  language: z.enum(LANGUAGES).default(FALLBACK_LANGUAGE),
});

export const createBatchBodySchema = z.strictObject({
  tenant,
  building: z.string().trim().min(1).max(BUILDING_MAX_LENGTH),
  // A date-time with its offset (2026-03-31T23:59:59+02:00): a bare date would leave the hour open.
  expiresAt: z.iso
    .datetime({ offset: true })
    .transform((value) => new Date(value))
    .refine((at) => at.getTime() > Date.now(), 'must be in the future')
    .optional(),
  units: z
    .array(batchUnitSchema)
    .min(1)
    .max(MAX_UNITS_PER_BATCH)
    .superRefine((units, context) => {
      // One letter per unit: the batch's unique index would refuse the second one anyway.
      const seen = new Set<string>();
      units.forEach((entry, index) => {
        if (seen.has(entry.unit)) {
          context.addIssue({ code: 'custom', path: [index, 'unit'], message: 'appears twice' });
        }
        seen.add(entry.unit);
      });
    }),
});

export const listBatchesQuerySchema = z.object({ tenant: tenant.optional(), limit, offset });

export const batchParamsSchema = z.object({ id: uuid });

/** A selection of codes to revoke, all or none; the same code twice counts once. */
export const revokeCodesBodySchema = z.strictObject({
  codes: z
    .array(uuid)
    .min(1)
    .max(MAX_CODES_PER_SELECTION)
    .transform((codes) => [...new Set(codes)]),
});

export const figuresQuerySchema = z.object({ tenant: tenant.optional() });

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
  /** The first 8 hex of SHA-256 of the admin token the call came with. */
  token: string;
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
