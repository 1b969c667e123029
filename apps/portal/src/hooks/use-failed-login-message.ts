import type { LoginErrorCode } from '@concierge/contracts';
import { useEffect, useState } from 'react';
import { fetchFailedLoginCounter } from '../api/failed-login-counter';
import { counterBeforeAttempt } from '../app/session-params';
import { useRuntimeConfig } from '../config/runtime-config';
import { useTenant } from '../config/tenant';

/** spec §4 and §8: after 1 failure two attempts remain, after 2 one, at 3 or more the account is locked. */
export function messageForCounter(counter: number | null): LoginErrorCode {
  if (counter === null || counter < 1) return 'invalid_username_password';
  if (counter === 1) return 'invalid_data_two_attempt';
  if (counter === 2) return 'invalid_data_one_attempt';
  return 'user_not_verified';
}

/**
 * The login error to show: the `error` code as it came, refined for a wrong password by the
 * failed-login counter (spec §2). Until the counter answers, the plain wrong-password message stands;
 * when the page knows the count before the attempt, the answer reflects the attempt's own failure.
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
    void fetchFailedLoginCounter(restApiBaseUrl, subdomain, email, after).then((counter) => {
      if (isCurrent) setRefined(messageForCounter(counter));
    });
    return () => {
      isCurrent = false;
    };
  }, [needsCounter, restApiBaseUrl, subdomain, email]);

  return needsCounter ? (refined ?? error) : error;
}
