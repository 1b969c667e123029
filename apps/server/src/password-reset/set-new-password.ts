import { unlockAfterReset } from '../accounts/protection/reset-unlock';
import { callError, providerUnreachable } from '../http/errors';
import { INVALID_RESET_LINK, PASSWORD_MISMATCH, PASSWORD_POLICY } from '../provider-client/cidaas-codes';
import type { ResetAcceptance } from '../provider-client/password-reset';
import { describeResult, isRefusedWith } from '../provider-client/provider-result';
import type { ResetDependencies } from './initiate-reset';
import { emailOfResetRequest, markAcceptUnknown, wasAcceptUnknown } from './reset-requests';

/**
 * ARCHITECTURE "Password reset / unlock": the provider sets the new password, then the account is
 * unlocked (also activated when its e-mail was never verified: the link proved it, spec §4) and its
 * failed-login counter cleared in every tenant.
 */
export async function setNewPassword(deps: ResetDependencies, input: ResetAcceptance): Promise<void> {
  await acceptNewPassword(deps, input);
  // Whose link this is: as recorded when this server started the reset. Never the e-mail in the
  // request body: anyone with a link for their own account could put another one there.
  const email = await emailOfResetRequest(deps.db, input.resetRequestId);
  try {
    await unlock(deps, email);
  } catch (error) {
    // The password is set, the unlock is not: the same link sent again finds it used, and then
    // finishes the unlock instead of calling the link invalid (see acceptNewPassword).
    await markAcceptUnknown(deps.db, input.resetRequestId);
    throw error;
  }
}

async function acceptNewPassword(deps: ResetDependencies, input: ResetAcceptance): Promise<void> {
  const result = await deps.provider.acceptReset(input);
  if (result.kind === 'answer') return;
  // The same link again after an unknown outcome or a failed unlock: "used" means that earlier
  // attempt set the password, and the unlock it could not reach is done now (a lost answer must not lock a tenant
  // out). At worst a link that expired meanwhile unlocks without a new password — only the link's
  // holder can do that, and the account's password stays what it was.
  if (isRefusedWith(result, INVALID_RESET_LINK) && (await wasAcceptUnknown(deps.db, input.resetRequestId))) {
    deps.log.info('reset accept: the link was used by an attempt whose answer was lost; completing it');
    return;
  }
  if (result.kind === 'unknown') {
    // The password may or may not have changed: said as it is, never guessed; a retry settles it.
    await markAcceptUnknown(deps.db, input.resetRequestId);
    deps.log.warn({ reason: result.reason }, 'reset accept: outcome unknown');
    throw providerUnreachable(
      'The identity provider did not confirm the new password. Please send the form again later.',
    );
  }
  if (isRefusedWith(result, INVALID_RESET_LINK)) {
    throw callError(
      'password-reset-set-new',
      400,
      'link_invalid',
      'The reset link is invalid, used or expired.',
    );
  }
  if (isRefusedWith(result, PASSWORD_MISMATCH)) {
    throw callError(
      'password-reset-set-new',
      400,
      'password_mismatch',
      'New password and password confirmation do not match.',
    );
  }
  if (isRefusedWith(result, PASSWORD_POLICY)) {
    throw callError(
      'password-reset-set-new',
      400,
      'password_too_weak',
      'The password does not meet the password rules.',
    );
  }
  deps.log.warn({ outcome: describeResult(result) }, 'the provider refused a reset accept');
  throw callError('password-reset-set-new', 400, 'default', 'The new password could not be set.');
}

/**
 * By now the password IS changed: a failure here is answered as could_not_unlock_user, so the person
 * knows the new password counts but the account may still be locked — and not as a failed reset,
 * which would send them to reset again with a used link. The failed-login count ends with it.
 */
async function unlock(deps: ResetDependencies, email: string | undefined): Promise<void> {
  const couldNotUnlock = (reason: string) => {
    deps.log.error({ reason }, 'password reset: the account could not be unlocked');
    return callError(
      'password-reset-set-new',
      502,
      'could_not_unlock_user',
      'The password was changed, but the account could not be unlocked.',
    );
  };
  if (!email) throw couldNotUnlock('the reset belongs to no account this server knows of');
  const outcome = await unlockAfterReset(deps, { email, at: new Date(), isOwnReset: true });
  if (outcome === 'retry') throw couldNotUnlock('the provider could not be asked or did not unlock');
  if (outcome === 'no_account') throw couldNotUnlock('the provider has no account with this e-mail');
  if (outcome === 'still_locked') throw couldNotUnlock("a lock that is not Concierge's holds the account");
}
