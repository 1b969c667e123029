import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'wouter';
import { type VerificationErrorKey, verificationErrorKey } from '../../api/error-keys';
import { activateUserAccount } from '../../api/portal-api';
import { useDropQueryParameters } from '../../hooks/use-drop-query-parameters';

/** spec §3: the activation status values, ALREADY_ACTICATED spelled as the spec spells it. */
export const ActivationStatus = {
  INIT: 'INIT',
  ACTIVATING: 'ACTIVATING',
  ALREADY_ACTICATED: 'ALREADY_ACTICATED',
  SUCCESSFULLY_ACTIVATED: 'SUCCESSFULLY_ACTIVATED',
  ERROR: 'ERROR',
} as const;
export type ActivationStatus = (typeof ActivationStatus)[keyof typeof ActivationStatus];

/** The one-time part of the activation link. */
const VERIFICATION_LINK_PARAMETERS = ['verificationid'];

/**
 * spec §4: INIT, then ACTIVATING when the call starts; SUCCESSFULLY_ACTIVATED on success,
 * ALREADY_ACTICATED when the server says so, ERROR on a failed call, an unreadable answer or a link
 * without e-mail or verificationid (then nothing is called, and the server-rendered page already
 * says so).
 */
export function useVerification() {
  const [searchParams] = useSearchParams();
  // Read once: the verification id leaves the address bar once the activation has started.
  const [{ email, verificationId }] = useState(() => ({
    email: searchParams.get('email')?.trim() ?? '',
    verificationId: searchParams.get('verificationid')?.trim() ?? '',
  }));
  const isLinkComplete = Boolean(email && verificationId);
  const [status, setStatus] = useState<ActivationStatus>(
    isLinkComplete ? ActivationStatus.INIT : ActivationStatus.ERROR,
  );
  const [errorKey, setErrorKey] = useState<VerificationErrorKey | null>(
    isLinkComplete ? null : 'verification.error.missing_variables',
  );
  // Activation is not idempotent in what it shows (a second call answers "already activated"), so
  // it runs once per page even if React runs the effect twice.
  const started = useRef(false);

  useEffect(() => {
    if (!isLinkComplete || started.current) return;
    started.current = true;
    setStatus(ActivationStatus.ACTIVATING);
    void activateUserAccount({ email, verificationid: verificationId }).then((result) => {
      if (result.ok) {
        setStatus(
          result.data.isAlreadyActivated
            ? ActivationStatus.ALREADY_ACTICATED
            : ActivationStatus.SUCCESSFULLY_ACTIVATED,
        );
      } else {
        setErrorKey(verificationErrorKey(result.code));
        setStatus(ActivationStatus.ERROR);
      }
    });
  }, [isLinkComplete, email, verificationId]);

  useDropQueryParameters(VERIFICATION_LINK_PARAMETERS, status !== ActivationStatus.INIT);

  return { status, errorKey };
}
