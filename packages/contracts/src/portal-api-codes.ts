// The parts of the portal ⇄ server contract the browser needs, without zod: importing a module that
// builds zod schemas at load time would put zod into the portal's bundle.

export const PORTAL_API_PREFIX = '/api/cidaas-webhook';

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** spec §5: a registration code is a version-4 UUID. */
export function isRegistrationCode(value: string): boolean {
  return UUID_V4.test(value.trim());
}

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
  // ours: a used or expired link (cidaas 10002), the passwords differ (10009) or break the provider's
  // rules, and the rate limit
  'link_invalid',
  'password_mismatch',
  'password_too_weak',
  'too_many_requests',
] as const;
