import type { CidaasDoubleVariants, DoubleUser } from './types';
import { touch } from './users';

/**
 * cidaas's brute-force block (documented as configurable; "blocks further login attempts after the
 * configured number of attempts", docs.cidaas.com fraud detection guides). The sub goes on the fraud
 * block list (documented: openapi/4.0.6/fds/post-unblock); whether userStatus shows BLOCKED as well
 * is the variant bruteForceBlock. Blocks do not expire here (documented: they do, at `expiresAt`;
 * no test lives that long).
 */
export function blockUser(user: DoubleUser, shows: CidaasDoubleVariants['bruteForceBlock']): void {
  user.isFraudBlocked = true;
  if (shows === 'status' && user.userStatus !== 'BLOCKED') {
    user.statusBeforeBlock = user.userStatus;
    user.userStatus = 'BLOCKED';
  }
  touch(user);
}

/**
 * `POST /fraud-detection-srv/unblock` for this user: true when there was a block to lift. Documented:
 * the sub leaves the block list. That a BLOCKED status goes back to the one the block replaced is
 * unknown (the docs say nothing of userStatus); without it a block shown as BLOCKED could never be
 * lifted, since the status call cannot leave BLOCKED (documented). The failure series starts anew
 * (unknown).
 */
export function unblockUser(user: DoubleUser): boolean {
  if (!user.isFraudBlocked && user.userStatus !== 'BLOCKED') return false;
  user.isFraudBlocked = false;
  if (user.userStatus === 'BLOCKED') user.userStatus = user.statusBeforeBlock ?? 'VERIFIED';
  delete user.statusBeforeBlock;
  user.failedAttempts = 0;
  touch(user);
  return true;
}
