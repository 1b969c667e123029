import { normaliseEmail, type WebhookEvent } from '@concierge/contracts';
import type { ProviderConfig } from '../config';
import type { ProviderDb } from '../db/schema';
import { enqueueWebhookEvents, newWebhookEvent } from '../webhooks/webhook-events';
import { verifyPassword } from './passwords';
import { hasRequiredRoles, type User } from './users';

/** The sub is there whenever the e-mail has an account: cidaas's failure redirect names it (sub, q). */
export type PasswordLoginOutcome =
  | { result: 'signed_in'; user: User }
  | { result: 'invalid_username_password'; sub?: string }
  | { result: 'email_not_verified'; sub: string }
  | { result: 'access_denied'; sub: string };

export interface PasswordLoginAttempt {
  email: string;
  password: string;
  /** The relying party the login is for: reported in the events, its roles are required. */
  clientId: string;
  requiredRoles: readonly string[];
}

export type SignInRules = ProviderConfig['signIn'];

export interface PasswordLoginResult {
  outcome: PasswordLoginOutcome;
  /** Webhook events written with the outcome, to be delivered in the background (routes/login.ts). */
  eventIds: string[];
  /** This attempt blocked the account (rules.blockAfterFailures): it is logged as a lock. */
  isLocked: boolean;
}

/**
 * Checks a password and keeps the failed-attempt count, atomically per user.
 *
 * Why a row lock: the user's row is read `for update` and the lock is held across the hash check
 * until the count (and maybe the BLOCKED status) is written. Parallel attempts for the same user
 * therefore queue on the row and each sees the count its predecessor left: the N-th failure sets
 * BLOCKED (rules.blockAfterFailures), and everybody after it sees BLOCKED and is answered without the
 * hash being checked. So at most N hashes are ever checked per block, however many attempts arrive at
 * once. (Reserving an attempt with a conditional update before checking would also cap the checks,
 * but a right password among wrong ones could then be refused or block the account depending on
 * timing.) The price is that one user's attempts are checked one after the other, ~10 ms each;
 * nothing else may use `db` inside the transaction.
 *
 * A DECLINED, BLOCKED or unknown account costs a hash check too, on a dummy hash outside the lock, so
 * the answer time does not tell it apart from a wrong password.
 */
export async function attemptPasswordLogin(
  db: ProviderDb,
  attempt: PasswordLoginAttempt,
  rules: SignInRules,
): Promise<PasswordLoginResult> {
  const email = normaliseEmail(attempt.email);
  const { clientId } = attempt;
  const decided = await db.transaction().execute(async (trx) => {
    const user = await trx
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email)
      .forUpdate()
      .executeTakeFirst();
    const failed = async (events: WebhookEvent[], isHashChecked: boolean, isLocked = false) => ({
      outcome: { result: 'invalid_username_password', sub: user?.sub } as const,
      eventIds: await enqueueWebhookEvents(trx, events),
      isHashChecked,
      isLocked,
    });
    // Unknown e-mails are reported too, so the server's counter behaves the same for every e-mail.
    if (!user) return failed([newWebhookEvent('LOGIN_FAILURE', { clientId, email })], false);
    const identity = { clientId, sub: user.sub, email: user.email };
    // Locked by the server (DECLINED) or by the brute-force protection (BLOCKED): answered exactly like
    // a wrong password, hash left unchecked.
    if (user.status === 'DECLINED' || user.status === 'BLOCKED') {
      return failed([newWebhookEvent('LOGIN_FAILURE', identity)], false);
    }

    if (!(await verifyPassword(user.password_hash, attempt.password))) {
      const failedAttempts = user.failed_login_attempts + 1;
      const isBlocking = rules.blockAfterFailures > 0 && failedAttempts >= rules.blockAfterFailures;
      await trx
        .updateTable('users')
        .set({
          failed_login_attempts: failedAttempts,
          ...(isBlocking ? { status: 'BLOCKED' as const } : {}),
          updated_at: new Date(),
        })
        .where('sub', '=', user.sub)
        .execute();
      const events = [newWebhookEvent('LOGIN_FAILURE', identity)];
      if (isBlocking) events.push(newWebhookEvent('ACCOUNT_LOCKED', identity));
      return failed(events, true, isBlocking);
    }

    // The right password ends the series of wrong ones, whatever happens next.
    if (user.failed_login_attempts !== 0) {
      await trx
        .updateTable('users')
        .set({ failed_login_attempts: 0, updated_at: new Date() })
        .where('sub', '=', user.sub)
        .execute();
    }
    const done = (outcome: PasswordLoginOutcome, events: WebhookEvent[] = []) =>
      enqueueWebhookEvents(trx, events).then((eventIds) => ({
        outcome,
        eventIds,
        isHashChecked: true,
        isLocked: false,
      }));
    // Only after the right password, as cidaas's verification pre-check runs after authentication.
    const isUnverified = !user.email_verified && rules.isVerifiedEmailRequired;
    if (user.status === 'PENDING' || isUnverified)
      return done({ result: 'email_not_verified', sub: user.sub });
    if (!hasRequiredRoles(user.roles, attempt.requiredRoles)) {
      return done({ result: 'access_denied', sub: user.sub });
    }
    return done({ result: 'signed_in', user }, [newWebhookEvent('LOGIN_WITH_CIDAAS', identity)]);
  });
  if (!decided.isHashChecked) await verifyPassword(undefined, attempt.password);
  return { outcome: decided.outcome, eventIds: decided.eventIds, isLocked: decided.isLocked };
}
