import type { ProviderHttp } from './provider-http';
import { answer, type ProviderResult } from './provider-result';
import {
  findUserBySub,
  markEmailVerified,
  type ProviderUser,
  type ProviderUserStatus,
  setUserStatus,
  unblockUser,
} from './users';

/** Whether Concierge itself set the DECLINED the account may have. */
export interface LockState {
  isOurLock: boolean;
  /**
   * Whether the unlock marks an unverified e-mail verified too: a reset does (its link proved the
   * mailbox; the default), an unlock through the admin API does not.
   */
  verifiesEmail?: boolean;
}

/**
 * What a state change found: done now, nothing was left to do, or no such user; after an unlock,
 * `still_locked` when a lock that is not Concierge's to lift holds (an operator's DECLINED, a block
 * of cidaas's that its unblock call did not lift).
 */
export type StateChange = 'changed' | 'unchanged' | 'no_user' | 'still_locked';

/**
 * Activation: afterwards the user's e-mail counts as verified. cidaas keeps self-registered users
 * VERIFIED with `email_verified: false`, so it marks the e-mail verified; a provider that keeps them
 * PENDING is set VERIFIED. Setting a status the user already has is a 400 at cidaas, so the user is
 * read first and only what is missing is changed.
 */
export async function verifyAccount(http: ProviderHttp, sub: string): Promise<ProviderResult<StateChange>> {
  const found = await findUserBySub(http, sub);
  if (found.kind !== 'answer') return found;
  return found.data ? verifyUser(http, found.data) : answer('no_user');
}

async function verifyUser(http: ProviderHttp, user: ProviderUser): Promise<ProviderResult<StateChange>> {
  let change: StateChange = 'unchanged';
  if (user.status === 'PENDING') {
    const result = await changeStatus(http, user.sub, 'VERIFIED');
    if (result.kind !== 'answer') return result;
    change = 'changed';
  }
  if (user.emailVerified === false) {
    const result = await markEmailVerified(http, user);
    if (result.kind !== 'answer') return result;
    change = 'changed';
  }
  return answer(change);
}

/**
 * After a completed reset: the account can sign in again. Concierge's DECLINED (`isOurLock`) is
 * lifted by the status call; cidaas's brute-force block by its unblock call, asked every time since
 * the block need not show in the user's status (answered 204 when there was none; refused where the
 * tenant has no fraud detection, which only matters for a user whose status says BLOCKED). An
 * operator's DECLINED stays. The reset link proved the mailbox, so an unverified e-mail becomes
 * verified too (spec §4), unless `verifiesEmail` is false (an unlock through the admin API proves
 * nothing of the mailbox).
 */
export async function unlockAccount(
  http: ProviderHttp,
  sub: string,
  options: LockState,
): Promise<ProviderResult<StateChange>> {
  const found = await findUserBySub(http, sub);
  if (found.kind !== 'answer') return found;
  if (!found.data) return answer('no_user');
  let user = found.data;
  let change: StateChange = 'unchanged';
  if (user.status === 'DECLINED' && options.isOurLock) {
    const result = await changeStatus(http, sub, 'VERIFIED');
    if (result.kind !== 'answer') return result;
    user = { ...user, status: 'VERIFIED' };
    change = 'changed';
  }
  const unblocked = await unblockUser(http, sub);
  if (unblocked.kind === 'answer' && unblocked.status === 200) change = 'changed';
  if (user.status === 'BLOCKED') {
    if (unblocked.kind === 'unknown') return unblocked;
    const after = await findUserBySub(http, sub);
    if (after.kind !== 'answer') return after;
    user = after.data ?? user;
  }
  if (user.status === 'DECLINED' || user.status === 'BLOCKED') return answer('still_locked');
  if (options.verifiesEmail === false) return answer(change);
  const verified = await verifyUser(http, user);
  if (verified.kind !== 'answer') return verified;
  return answer(verified.data === 'changed' ? 'changed' : change);
}

/**
 * Concierge's lock after the third failure (spec §4): DECLINED, which blocks sign-in at cidaas. A
 * user already DECLINED or BLOCKED stays as it is (setting the same status again is a 400).
 */
export async function lockAccount(http: ProviderHttp, sub: string): Promise<ProviderResult<StateChange>> {
  const found = await findUserBySub(http, sub);
  if (found.kind !== 'answer') return found;
  if (!found.data) return answer('no_user');
  if (found.data.status === 'DECLINED' || found.data.status === 'BLOCKED') return answer('unchanged');
  const result = await changeStatus(http, sub, 'DECLINED');
  return result.kind === 'answer' ? answer('changed') : result;
}

/**
 * Sets the status; when the provider refuses, the user is read again: somebody else (a parallel
 * reset, the webhook of the same reset) may have set it meanwhile, and cidaas refuses a change to
 * the status a user already has (400). Only a refusal that left another status stands.
 */
async function changeStatus(
  http: ProviderHttp,
  sub: string,
  status: ProviderUserStatus,
): Promise<ProviderResult<unknown>> {
  const result = await setUserStatus(http, sub, status);
  if (result.kind !== 'refusal') return result;
  const now = await findUserBySub(http, sub);
  return now.kind === 'answer' && now.data?.status === status ? answer(undefined) : result;
}
