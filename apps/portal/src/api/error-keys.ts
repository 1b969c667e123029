// spec §8: one mapper per page family turns a server code (or an `error` query value) into a
// translation key through an allow-list. Anything else shows the family's default message and
// nothing of what was sent; so a crafted `?error=` can never show arbitrary text or a raw key.
import {
  FIELD_CODES,
  FORM_EXPIRED,
  NEW_INVITATION_REQUEST_ERROR_CODES,
  PASSWORD_RESET_INIT_ERROR_CODES,
  PASSWORD_RESET_SET_ERROR_CODES,
  PROVIDER_UNREACHABLE,
  REGISTRATION_ERROR_CODES,
  SERVICE_UNAVAILABLE,
  VERIFICATION_ERROR_CODES,
} from '@concierge/contracts';

function isOneOf<T extends string>(list: readonly T[], value: string | null | undefined): value is T {
  return (list as readonly (string | null | undefined)[]).includes(value);
}

/**
 * ours: a 503 — the server could not reach the identity provider (provider_unreachable), or its
 * database is out for the moment (service_unavailable): the same message on every page, in the
 * page's language, instead of a generic failure.
 */
const TEMPORARY_FAILURE_KEYS = {
  [PROVIDER_UNREACHABLE]: 'common.providerUnreachable',
  [SERVICE_UNAVAILABLE]: 'common.serviceUnavailable',
  // ours: a form posted without a valid token (routes/portal-forms.ts); sending it again helps.
  [FORM_EXPIRED]: 'common.formExpired',
} as const;
type TemporaryFailureKey = (typeof TEMPORARY_FAILURE_KEYS)[keyof typeof TEMPORARY_FAILURE_KEYS];

/** The message for a 503's code, or undefined for any other code. */
export function temporaryFailureKey(code: string | null | undefined): TemporaryFailureKey | undefined {
  return code === PROVIDER_UNREACHABLE || code === SERVICE_UNAVAILABLE || code === FORM_EXPIRED
    ? TEMPORARY_FAILURE_KEYS[code]
    : undefined;
}

// The fields' messages (spec §5) live under register.error too.
const REGISTER_MESSAGE_CODES = [...REGISTRATION_ERROR_CODES, ...FIELD_CODES] as const;
type RegisterMessageCode = (typeof REGISTER_MESSAGE_CODES)[number];
export type RegisterErrorKey = `register.error.${RegisterMessageCode | 'default'}` | TemporaryFailureKey;

/**
 * Registration: `register.error.{code}` when the code has a message, else errorCreatingNewUser for
 * a failed submit and `default` for the page's `error` query value (spec §8).
 */
export function registerErrorKey(
  code: string | null | undefined,
  fallback: 'errorCreatingNewUser' | 'default' = 'errorCreatingNewUser',
): RegisterErrorKey {
  const temporary = temporaryFailureKey(code);
  if (temporary) return temporary;
  return `register.error.${isOneOf(REGISTER_MESSAGE_CODES, code) ? code : fallback}`;
}

export type NewInvitationRequestErrorKey =
  | `register.newInvitation.error.${(typeof NEW_INVITATION_REQUEST_ERROR_CODES)[number] | 'default'}`
  | TemporaryFailureKey;

/** Asking for a new invitation (issue 30): `register.newInvitation.error.{code}`, else default. */
export function newInvitationRequestErrorKey(code: string | null | undefined): NewInvitationRequestErrorKey {
  const temporary = temporaryFailureKey(code);
  if (temporary) return temporary;
  return `register.newInvitation.error.${isOneOf(NEW_INVITATION_REQUEST_ERROR_CODES, code) ? code : 'default'}`;
}

export type VerificationErrorKey =
  | `verification.error.${(typeof VERIFICATION_ERROR_CODES)[number] | 'default'}`
  | TemporaryFailureKey;

/** Activation: `verification.error.{code}` if it exists, else default (spec §8). */
export function verificationErrorKey(code: string | null | undefined): VerificationErrorKey {
  const temporary = temporaryFailureKey(code);
  if (temporary) return temporary;
  return `verification.error.${isOneOf(VERIFICATION_ERROR_CODES, code) ? code : 'default'}`;
}

export type PasswordResetInitErrorKey =
  | `password_reset.init.error.${(typeof PASSWORD_RESET_INIT_ERROR_CODES)[number] | 'default'}`
  | TemporaryFailureKey;

/** Reset initiate: `password_reset.init.error.{code}`, else default (spec §8). */
export function passwordResetInitErrorKey(code: string | null | undefined): PasswordResetInitErrorKey {
  const temporary = temporaryFailureKey(code);
  if (temporary) return temporary;
  return `password_reset.init.error.${isOneOf(PASSWORD_RESET_INIT_ERROR_CODES, code) ? code : 'default'}`;
}

/**
 * missing_url_query_param names the missing parameter, which only the page itself knows (it checks
 * the link before it shows the form); from the server or the query it would show a blank name, so
 * it reads as the default message there.
 */
const PASSWORD_SET_SERVER_CODES = PASSWORD_RESET_SET_ERROR_CODES.filter(
  (code): code is Exclude<typeof code, 'missing_url_query_param'> => code !== 'missing_url_query_param',
);
export type PasswordSetErrorKey =
  | `password_reset.reset.error.${(typeof PASSWORD_SET_SERVER_CODES)[number] | 'default'}`
  | TemporaryFailureKey;

/** Set new password: `password_reset.reset.error.{code}`, else default (spec §8). */
export function passwordSetErrorKey(code: string | null | undefined): PasswordSetErrorKey {
  const temporary = temporaryFailureKey(code);
  if (temporary) return temporary;
  return `password_reset.reset.error.${isOneOf(PASSWORD_SET_SERVER_CODES, code) ? code : 'default'}`;
}
