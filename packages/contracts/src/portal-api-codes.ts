// The parts of the portal ⇄ server contract the browser needs, without zod: importing a module that
// builds zod schemas at load time would put zod into the portal's bundle.

export const PORTAL_API_PREFIX = '/api/cidaas-webhook';

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** spec §5: a registration code is a version-4 UUID. */
export function isRegistrationCode(value: string): boolean {
  return normaliseRegistrationCode(value) !== undefined;
}

// What may stand between two groups of the code: spaces and hyphens, and what Word and PDF letters
// turn a typed hyphen into or copy along with it: the Unicode hyphens and dashes (‐ ‑ ‒ – — ―), the
// minus sign, a soft hyphen, dots and middle dots (. · • ∙ ⋅ ‧) and zero-width spaces.
const SEPARATOR = '[\\s\\-\u00ad\u2010-\u2015\u2212.\u00b7\u2022\u2219\u22c5\u2027\u200b-\u200d\u2060]*';
const HEX = (count: number) => `([0-9a-f]{${count}})`;

// The code's 32 hex digits in the letter's five groups, each group boundary with or without
// separators, not glued to other hex digits (so "Code: …" around it is no part of it).
const CODE_IN_TEXT = new RegExp(
  `(?<![0-9a-f])${[HEX(8), HEX(4), HEX(4), HEX(4), HEX(12)].join(SEPARATOR)}(?![0-9a-f])`,
  'i',
);

/**
 * The registration code as printed on the letter (lower case, grouped 8-4-4-4-12), found in what
 * the tenant typed or pasted: with or without hyphens, with dashes or dots instead, in any case,
 * with spaces, and with text around it. Undefined when there is no version-4 UUID in it.
 */
export function normaliseRegistrationCode(input: string): string | undefined {
  const groups = CODE_IN_TEXT.exec(input);
  if (!groups) return undefined;
  const code = groups.slice(1, 6).join('-').toLowerCase();
  return UUID_V4.test(code) ? code : undefined;
}

/**
 * ours: the identity provider could not be reached (no answer, a timeout, a 5xx, or the server's
 * circuit breaker is open after repeated such failures), so nothing was done. Answered with HTTP 503
 * by register-user, activate-user-account, password-reset-initiate and password-reset-set-new, for
 * a message like "The sign-in service cannot be reached right now. Please try again in a few
 * minutes." Not in the lists below yet: a code there needs a translation in the portal first.
 */
export const PROVIDER_UNREACHABLE = 'provider_unreachable';

/**
 * ours: the server's own database could not be reached (stopped, restarting, failing over), so the
 * request could not be handled; answered with HTTP 503 and `Retry-After` by any API route that
 * needed it, for "please try again in a few minutes". Like provider_unreachable, not in the lists
 * below yet: until the portal has a translation for it, each page shows its general message.
 */
export const SERVICE_UNAVAILABLE = 'service_unavailable';

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
  // ours: the provider's answer was lost and the registration is being settled (the activation
  // e-mail follows), an invitation whose e-mail or code does not match, and the rate limit
  'registration_pending',
  'invitation_mismatch',
  // ours: the property manager withdrew the invitation, or it is past its date (issue 30)
  'invitation_withdrawn',
  'invitation_expired',
  // ours: the code of a building's letter is past the date it was valid until (issue 30)
  'registration_code_expired',
  'too_many_requests',
] as const;

export const VERIFICATION_ERROR_CODES = [
  'already_activated',
  'missing_variables',
  'email_or_verificationid_invalid',
  'missing_request_property',
  // ours: the rate limit, with its wait (Retry-After)
  'too_many_requests',
] as const;

/** spec §8: resend has one message; the one refusal is a malformed address (its input check). */
export const RESEND_ACTIVATION_ERROR_CODES = ['missing_request_property'] as const;

/**
 * ours (issue 30): asking for a new invitation has one answer for every link, recorded or not; what
 * it may refuse is a body without the link's parameters and the rate limit.
 */
export const NEW_INVITATION_REQUEST_ERROR_CODES = ['missing_request_property', 'too_many_requests'] as const;

export const PASSWORD_RESET_INIT_ERROR_CODES = ['missing_request_id', 'too_many_requests'] as const;

export const PASSWORD_RESET_SET_ERROR_CODES = [
  'missing_url_query_param',
  'could_not_unlock_user',
  // ours: a used or expired link (cidaas 10002), the passwords differ (10009) or break the provider's
  // rules, and the rate limit
  'link_invalid',
  'password_mismatch',
  'password_too_weak',
  'too_many_requests',
] as const;
