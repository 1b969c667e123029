import { FAILED_LOGINS_BEFORE_LOCK, type LoginErrorCode } from '@concierge/contracts';
import { useEffect, useState } from 'react';
import { fetchFailedLoginCounter } from '../api/failed-login-counter';
import { counterBeforeAttempt } from '../app/session-params';
import { useRuntimeConfig } from '../config/runtime-config';
import { useTenant } from '../config/tenant';

/**
 * spec §4 and §8: the attempts left before the lock (the spec's texts say "two" and "one"), then
 * locked. The threshold is the one the server locks at.
 */
export function messageForCounter(counter: number | null): LoginErrorCode {
  if (counter === null || counter < 1) return 'invalid_username_password';
  const left = FAILED_LOGINS_BEFORE_LOCK - counter;
  if (left === 2) return 'invalid_data_two_attempt';
  if (left === 1) return 'invalid_data_one_attempt';
  return left <= 0 ? 'user_not_verified' : 'invalid_username_password';
}

/**
 * The login error to show: the `error` code as it came, refined for a wrong password by the
 * failed-login counter (spec §2). Until the counter answers, the plain wrong-password message stands;
 * when the page knows the count before the attempt, the answer reflects the attempt's own failure,
 * waited for twice at most.
 */
export function useFailedLoginMessage(error: LoginErrorCode | null, email: string): LoginErrorCode | null {
  const { restApiBaseUrl } = useRuntimeConfig();
  const { subdomain } = useTenant();
  const [refined, setRefined] = useState<LoginErrorCode | null>(null);
  const needsCounter = error === 'invalid_username_password' && email !== '';

  useEffect(() => {
    if (!needsCounter) return;
    let isCurrent = true;
    const after = counterBeforeAttempt(email);
    const ask = () => fetchFailedLoginCounter(restApiBaseUrl, subdomain, email, after);
    void (async () => {
      let counter = await ask();
      // The server waits 5 s for the attempt's event, which the provider sends after its redirect.
      // Under load it came later (the page said only "wrong password" where two attempts were left):
      // a count that has not moved is asked once more. At the lock it has nowhere to move.
      const isLate =
        counter !== null && after !== undefined && counter <= after && counter < FAILED_LOGINS_BEFORE_LOCK;
      if (isCurrent && isLate) counter = await ask();
      if (isCurrent) setRefined(messageForCounter(counter));
    })();
    return () => {
      isCurrent = false;
    };
  }, [needsCounter, restApiBaseUrl, subdomain, email]);

  return needsCounter ? (refined ?? error) : error;
}
