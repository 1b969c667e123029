import { z } from 'zod';
import { EMAIL_MAX_LENGTH, emailSchema } from './email';

// spec §7: the portal's calls to its server, POST /api/cidaas-webhook/{name}, JSON only. Answers use
// the envelope ({success, status, data} or {success:false, status, error:{code, type, error}}); the
// portal reads error.code through an allow-list of translation keys (spec §8).

export const PORTAL_API_PREFIX = '/api/cidaas-webhook';

const requestId = z.string().min(1).max(200);
const password = z.string().min(1).max(1024);
const uuidV4 = z
  .string()
  .trim()
  .regex(
    /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i,
    'must be a version-4 UUID',
  );

/** spec §5: a registration code is a version-4 UUID. */
export function isRegistrationCode(value: string): boolean {
  return uuidV4.safeParse(value).success;
}

/** register-user: spec §3 registration form, §7 payload. The e-mail is lower-cased (spec §5). */
export const registerUserBodySchema = z.object({
  email: emailSchema.transform((value) => value.toLowerCase()),
  password,
  registrationcode: uuidV4.transform((value) => value.toLowerCase()),
  /** The tenant's OIDC client id; the server maps it to the tenant through the registry. */
  clientid: z.string().min(1).max(200),
  invite_id: uuidV4.optional(),
});
export type RegisterUserBody = z.input<typeof registerUserBodySchema>;
export interface RegisterUserAnswer {
  sub: string;
  /** The activation e-mail went into the outbox. */
  activationMailQueued: boolean;
}

/** activate-user-account (spec §7). */
export const activateUserAccountBodySchema = z.object({
  email: z.string().trim().min(1).max(EMAIL_MAX_LENGTH),
  verificationid: z.string().min(1).max(200),
});
export type ActivateUserAccountBody = z.input<typeof activateUserAccountBodySchema>;
export interface ActivateUserAccountAnswer {
  isAlreadyActivated: boolean;
}

/** resend-account-activation-email (spec §7): one answer for every e-mail. */
export const resendActivationBodySchema = z.object({ email: emailSchema });
export type ResendActivationBody = z.input<typeof resendActivationBodySchema>;

/** password-reset-initiate (spec §7): one answer for every e-mail. */
export const passwordResetInitiateBodySchema = z.object({
  requestId,
  email: emailSchema,
  processingType: z.literal('LINK'),
  resetMedium: z.literal('email'),
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
export interface PasswordResetSetNewAnswer {
  /** Where the browser goes next; the portal follows it only onto a registry host. */
  redirect_uri: string;
}

/** GET {restApiBaseUrl}/user-login-failed-counter?subdomain&email → [{counter}] (spec §7). */
export const failedLoginCounterQuerySchema = z.object({
  subdomain: z.string().min(1).max(63),
  email: z.string().trim().min(1).max(EMAIL_MAX_LENGTH),
});
export type FailedLoginCounterAnswer = [{ counter: number }];

// spec §8: the error codes the server answers, each with a translation in the portal.
export const REGISTRATION_ERROR_CODES = [
  'registrationCodeInvalid',
  'registrationCodeCheckFailed',
  'registrationCodeInvalidFormat',
  'registrationCodeRequired',
  'errorCreatingNewUser',
  'userAlreadyRegistered',
  'missing_request_property',
  'email_already_registered_db',
  'email_already_registered_identity_provider',
  'registrationcode_does_not_exists',
  'registration_code_already_registered_db',
  'registration_code_already_registered_identity_provider',
  'registration_error',
  'user_has_not_roles',
  // ours: an invitation whose e-mail or code does not match, and the rate limit
  'invitation_mismatch',
  'too_many_requests',
] as const;
export type RegistrationErrorCode = (typeof REGISTRATION_ERROR_CODES)[number];

export const VERIFICATION_ERROR_CODES = [
  'already_activated',
  'missing_variables',
  'email_or_verificationid_invalid',
  'missing_request_property',
] as const;

export const PASSWORD_RESET_INIT_ERROR_CODES = ['missing_request_id', 'too_many_requests'] as const;

export const PASSWORD_RESET_SET_ERROR_CODES = [
  'missing_url_query_param',
  'could_not_unlock_user',
  // ours: a used or expired link, and the rate limit
  'link_invalid',
  'too_many_requests',
] as const;
