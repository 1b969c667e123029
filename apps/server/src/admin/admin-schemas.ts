import { LANGUAGES, registerUserBodySchema, SUBDOMAIN_PATTERN } from '@concierge/contracts';
import { z } from 'zod';
import type { RegistrationCodeStatus } from '../db/schema';

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
