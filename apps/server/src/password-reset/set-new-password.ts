import { normaliseEmail, type ResetPasswordAcceptBody } from '@concierge/contracts';
import { clearFailedLogins } from '../failed-logins/failed-login-counters';
import { AppError } from '../http/errors';
import { type ProviderResult, ProviderUnreachableError } from '../provider-client/provider-client';
import { findProviderUser, setProviderUserStatus } from '../provider-client/users';
import type { ResetDependencies } from './initiate-reset';
import { emailOfResetRequest } from './reset-requests';

export interface SetNewPasswordInput {
  resetRequestId: string;
  exchangeId: string;
  password: string;
  confirmPassword: string;
}

/** What the accept answer may carry besides `reseted`; the embedded provider sends neither. */
interface AcceptedData {
  sub?: unknown;
  email?: unknown;
}

/**
 * ARCHITECTURE "Password reset / unlock": the provider sets the new password, then the account is
 * unlocked (status VERIFIED — which also activates an account that was never activated: the link
 * proved the e-mail, spec §4) and its failed-login counter cleared in every tenant.
 */
export async function setNewPassword(deps: ResetDependencies, input: SetNewPasswordInput): Promise<void> {
  const accepted = await acceptNewPassword(deps, input);
  const account = {
    // Whose link this is: as recorded when this server started the reset, else as the provider says.
    // Never the e-mail in the request body: anyone with a link for their own account could put
    // another one there and unlock or activate it.
    email:
      (await emailOfResetRequest(deps.db, input.resetRequestId)) ??
      (typeof accepted.email === 'string' ? normaliseEmail(accepted.email) : undefined),
    sub: typeof accepted.sub === 'string' ? accepted.sub : undefined,
  };
  await unlockAccount(deps, account);
  if (account.email) await clearFailedLogins(deps.db, account.email);
}

async function acceptNewPassword(deps: ResetDependencies, input: SetNewPasswordInput): Promise<AcceptedData> {
  const body: ResetPasswordAcceptBody = input;
  let result: ProviderResult<AcceptedData>;
  try {
    result = await deps.provider.call<AcceptedData>('POST', '/users-srv/resetpassword/accept', body);
  } catch (error) {
    // The outcome is unknown: the password may or may not have changed. The link tells on a retry.
    if (error instanceof ProviderUnreachableError) {
      throw new AppError(503, 'default', 'The identity provider cannot be reached. Please try again.');
    }
    throw error;
  }
  if (result.ok) return result.data ?? {};
  switch (String(result.code)) {
    case 'invalid_reset_request':
      throw new AppError(400, 'link_invalid', 'The reset link is invalid, used or expired.');
    case 'password_mismatch':
      throw new AppError(400, 'password_mismatch', 'New password and password confirmation do not match.');
    case 'password_too_weak':
      throw new AppError(400, 'password_too_weak', 'The password does not meet the password rules.');
    default:
      deps.log.warn({ status: result.status, code: result.code }, 'the provider refused a reset accept');
      throw result.status < 500
        ? new AppError(400, 'default', 'The new password could not be set.')
        : new AppError(502, 'default', 'The identity provider could not set the new password.');
  }
}

/**
 * Sets the account VERIFIED. By now the password IS changed: a failure here is answered as
 * could_not_unlock_user (a 500), so the person knows the new password counts but the account may still
 * be locked — and not as a failed reset, which would send them to reset again with a used link.
 */
async function unlockAccount(deps: ResetDependencies, account: { email?: string; sub?: string }) {
  const couldNotUnlock = (reason: string) => {
    deps.log.error({ reason }, 'password reset: the account could not be unlocked');
    return new AppError(
      500,
      'could_not_unlock_user',
      'The password was changed, but the account could not be unlocked.',
    );
  };
  try {
    let { sub } = account;
    if (!sub && account.email) {
      const user = await findProviderUser(deps.provider, account.email);
      if (user.exists) sub = user.sub;
    }
    if (!sub) throw couldNotUnlock('the reset belongs to no account this server knows of');
    const result = await setProviderUserStatus(deps.provider, sub, 'VERIFIED');
    if (!result.ok) throw couldNotUnlock(`status change refused (HTTP ${result.status})`);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw couldNotUnlock((error as Error).message);
  }
}
