import type { RegistrationCodeStatus } from '@concierge/contracts';
import {
  FALLBACK_LANGUAGE,
  LANGUAGES,
  queryInteger,
  registerUserBodySchema,
  SUBDOMAIN_PATTERN,
} from '@concierge/contracts';
import { z } from 'zod';

// The operators' admin API (/api/admin/…): its payloads, checked by the routes and built by the CLI.
// Its answers are @concierge/contracts' admin-api.ts, which the console reads too.

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
const limit = queryInteger(1, MAX_CODES_PER_REQUEST).default(1000);
const offset = queryInteger(0, Number.MAX_SAFE_INTEGER).default(0);

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
  limit: queryInteger(1, MAX_AUDIT_ENTRIES_PER_PAGE).default(100),
  before: queryInteger(1, Number.MAX_SAFE_INTEGER).optional(),
});

/** The account by its e-mail, normalised as the lock keeps it (trimmed, lower-cased). */
export const unlockAccountBodySchema = z.strictObject({ email: registerUserBodySchema.shape.email });
