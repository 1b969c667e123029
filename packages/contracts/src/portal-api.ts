import { z } from 'zod';
import { EMAIL_MAX_LENGTH } from './email';
import { emailSchema } from './email-schema';
import { normaliseRegistrationCode, UUID_V4 } from './portal-api-codes';
import type { PortalCallName } from './portal-calls';
import { queryInteger } from './query-integer';

// spec §7: the payloads of the portal's calls to its server, POST /api/cidaas-webhook/{name}, JSON
// only. Answers use the envelope ({success, status, data} or {success:false, status, error:{code,
// type, error}}); the portal reads error.code through an allow-list of translation keys (spec §8).
// The zod-free parts the browser needs (prefix, codes, rules) are in portal-api-codes.ts.

const requestId = z.string().min(1).max(200);
const password = z.string().min(1).max(1024);
const uuidV4 = z.string().trim().regex(UUID_V4, 'must be a version-4 UUID');

/** register-user: spec §3 registration form, §7 payload. The e-mail is lower-cased (spec §5). */
export const registerUserBodySchema = z.object({
  email: emailSchema.transform((value) => value.toLowerCase()),
  password,
  // As the tenant typed or pasted it from the letter: the server reads it the way the page does.
  registrationcode: z
    .string()
    .max(200)
    .transform((value, context) => {
      const code = normaliseRegistrationCode(value);
      if (code === undefined) context.addIssue({ code: 'custom', message: 'must be a version-4 UUID' });
      return code ?? z.NEVER;
    }),
  /** The tenant's OIDC client id; the server maps it to the tenant through the registry. */
  clientid: z.string().min(1).max(200),
  /** `null` as leaving it out: no invitation (a client that sends every field sends it so). */
  invite_id: uuidV4.nullish().transform((value) => value ?? undefined),
});
export type RegisterUserBody = z.input<typeof registerUserBodySchema>;

/** activate-user-account (spec §7). */
export const activateUserAccountBodySchema = z.object({
  email: z.string().trim().min(1).max(EMAIL_MAX_LENGTH),
  verificationid: z.string().min(1).max(200),
});
export type ActivateUserAccountBody = z.input<typeof activateUserAccountBodySchema>;

/** resend-account-activation-email (spec §7): one answer for every e-mail. */
export const resendActivationBodySchema = z.object({
  email: emailSchema,
  /** ours: the page's tenant, whose brand a note to an account Concierge did not register wears. */
  subdomain: z.string().max(63).optional(),
});
export type ResendActivationBody = z.input<typeof resendActivationBodySchema>;

/** password-reset-initiate (spec §7): one answer for every e-mail. */
export const passwordResetInitiateBodySchema = z.object({
  /** Empty from a page that had none (a form sent without JavaScript): the server gets one. */
  requestId: z.string().max(200),
  email: emailSchema,
  processingType: z.literal('LINK'),
  resetMedium: z.literal('email'),
  /** The page's tenant: when the request id has expired, a fresh one comes from its client. */
  subdomain: z.string().max(63).optional(),
});
export type PasswordResetInitiateBody = z.input<typeof passwordResetInitiateBodySchema>;

/** password-reset-set-new (spec §7). */
export const passwordResetSetNewBodySchema = z.object({
  resetRequestId: z.string().min(1).max(200),
  exchangeId: z.string().min(1).max(200),
  password,
  confirmpassword: password,
  requestId,
  email: z.string().trim().max(EMAIL_MAX_LENGTH).optional(),
});
export type PasswordResetSetNewBody = z.input<typeof passwordResetSetNewBodySchema>;

/**
 * request-new-invitation (issue 30): the parameters of the invitation's link as the link carries
 * them. Only their length is checked here: whether they name a withdrawn or expired invitation is the
 * server's business, and it answers the same either way.
 */
export const requestNewInvitationBodySchema = z.object({
  invite_id: z.string().max(200),
  registrationcode: z.string().max(200),
  email: z.string().max(EMAIL_MAX_LENGTH),
});
export type RequestNewInvitationBody = z.input<typeof requestNewInvitationBodySchema>;

/**
 * Each portal call's body (PORTAL_CALLS in portal-calls.ts, by the same names), which the server
 * parses; kept apart only because the browser must not load zod. A call without one fails the
 * typecheck.
 */
export const PORTAL_CALL_BODIES = {
  'register-user': registerUserBodySchema,
  'activate-user-account': activateUserAccountBodySchema,
  'resend-account-activation-email': resendActivationBodySchema,
  'password-reset-initiate': passwordResetInitiateBodySchema,
  'password-reset-set-new': passwordResetSetNewBodySchema,
  'request-new-invitation': requestNewInvitationBodySchema,
} as const satisfies Record<PortalCallName, z.ZodType>;

/** What the portal sends for a call. */
export type PortalCallBody<N extends PortalCallName> = z.input<(typeof PORTAL_CALL_BODIES)[N]>;

/** GET {restApiBaseUrl}/user-login-failed-counter?subdomain&email → [{counter}] (spec §7). */
export const failedLoginCounterQuerySchema = z.object({
  subdomain: z.string().min(1).max(63),
  email: z.string().trim().min(1).max(EMAIL_MAX_LENGTH),
  /**
   * The count the page saw before its sign-in attempt: the answer waits (a few seconds at most) for
   * the provider's event of that attempt, which may arrive after the redirect back.
   */
  after: queryInteger(0, 1000).optional(),
});
export type FailedLoginCounterAnswer = [{ counter: number }];
