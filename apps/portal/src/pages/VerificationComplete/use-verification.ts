import { activationForm } from '@concierge/contracts';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'wouter';
import { type VerificationErrorKey, verificationErrorKey } from '../../api/error-keys';
import { callPortal } from '../../api/portal-api';
import { usePostedForm } from '../../config/posted-form';
import { useDropQueryParameters } from '../../hooks/use-drop-query-parameters';
import { usePortalForm } from '../../hooks/use-portal-form';

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
 *
 * The link's page is a form with one button (issue 25): opening the link activates nothing — a
 * mail scanner that fetches it does no harm — and the page's script presses the button at once.
 * Without the script the tenant presses it, and the server renders the outcome.
 */
export function useVerification() {
  const [searchParams] = useSearchParams();
  const posted = usePostedForm(activationForm);
  // Read once: the verification id leaves the address bar once the activation has started.
  const [{ email, verificationId }] = useState(() => ({
    email: posted?.values.email ?? searchParams.get('email')?.trim() ?? '',
    verificationId: posted?.values.verificationid ?? searchParams.get('verificationid')?.trim() ?? '',
  }));
  const isLinkComplete = Boolean(email && verificationId);
  const [status, setStatus] = useState<ActivationStatus>(() => {
    if (!isLinkComplete) return ActivationStatus.ERROR;
    if (posted?.status === 'sent') {
      return posted.isAlreadyActivated
        ? ActivationStatus.ALREADY_ACTICATED
        : ActivationStatus.SUCCESSFULLY_ACTIVATED;
    }
    return posted ? ActivationStatus.ERROR : ActivationStatus.INIT;
  });
  const [retryAfterSeconds, setRetryAfterSeconds] = useState(
    posted?.status === 'refused' ? posted.retryAfterSeconds : undefined,
  );
  const [errorKey, setErrorKey] = useState<VerificationErrorKey | null>(() => {
    if (!isLinkComplete) return 'verification.error.missing_variables';
    return posted?.status === 'refused' ? verificationErrorKey(posted.code) : null;
  });
  const form = usePortalForm({ checks: {} });
  // Activation is not idempotent in what it shows (a second call answers "already activated"), so
  // it runs once per page even if React runs the effect twice.
  const started = useRef(false);

  function activate() {
    if (started.current) return;
    started.current = true;
    setStatus(ActivationStatus.ACTIVATING);
    void callPortal('activate-user-account', activationForm.body(form.value)).then((result) => {
      if (result.ok) {
        setStatus(
          result.data.isAlreadyActivated
            ? ActivationStatus.ALREADY_ACTICATED
            : ActivationStatus.SUCCESSFULLY_ACTIVATED,
        );
      } else {
        setErrorKey(verificationErrorKey(result.code));
        setRetryAfterSeconds(result.retryAfterSeconds);
        setStatus(ActivationStatus.ERROR);
      }
    });
  }

  // The script presses the button as soon as it runs (the server answered none yet).
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the page has come alive
  useEffect(() => {
    if (status === ActivationStatus.INIT) activate();
  }, []);

  useDropQueryParameters(VERIFICATION_LINK_PARAMETERS, status !== ActivationStatus.INIT);

  return {
    status,
    errorKey,
    retryAfterSeconds,
    form,
    email,
    verificationId,
    onSubmit: (event: { preventDefault(): void }) => {
      event.preventDefault();
      activate();
    },
    /** The outcome came with the page (a button pressed without JavaScript): the page opens with it. */
    isPosted: posted !== undefined,
  };
}
