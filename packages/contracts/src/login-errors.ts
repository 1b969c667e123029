// spec §8, login: the `error` query values the portal has a message for. Anything else shows the
// default message; error_description is never shown (it is attacker-controlled).
export const LOGIN_ERROR_CODES = [
  'invalid_username_password',
  'user_not_found',
  'user_or_password_invalid',
  'user_does_not_exist',
  'user_not_verified',
  'invalid_data_two_attempt',
  'invalid_data_one_attempt',
  'access_denied',
  // ours: the provider's answer to a login POST whose request id has expired
  'session_expired',
  // Ours: a form sent while the page had no request (the provider was away) went to the server.
  'not_sent',
] as const;
export type LoginErrorCode = (typeof LOGIN_ERROR_CODES)[number] | 'default';

export function toLoginErrorCode(value: string | null | undefined): LoginErrorCode {
  return (LOGIN_ERROR_CODES as readonly string[]).includes(value ?? '')
    ? (value as LoginErrorCode)
    : 'default';
}

/**
 * spec §4, §9: the failed sign-ins in a row that lock an account. The server locks at this count;
 * the login page says how many attempts are left before it (two after the first failure, one after
 * the second).
 */
export const FAILED_LOGINS_BEFORE_LOCK = 3;
