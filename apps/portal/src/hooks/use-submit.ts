import { type FormEvent, useState } from 'react';

/** What a submit's call answers: a PortalApiResult, or a page's own outcome of the same shape. */
export type SubmitOutcome =
  | { ok: true }
  | { ok: false; code: string | undefined; retryAfterSeconds?: number };

/**
 * spec §4: idle (nothing sent yet, or the input was invalid), submitting (the inputs are disabled),
 * success (the success message replaces the form) and failed (the form stays, with the error above).
 */
export type SubmitState = 'idle' | 'submitting' | 'success' | 'failed';

interface SubmitOptions<K> {
  /** The message the page opens with (its `error` query value, or the server's answer to the form). */
  initialError?: K | null;
  /** The state the page opens in: the server's answer to a form posted without JavaScript. */
  initialState?: SubmitState;
  /** How long the server asked to wait with the initial error (a 429's Retry-After). */
  initialRetryAfterSeconds?: number;
  /**
   * Invalid input leaves the state and message as they are instead of returning to idle: the login
   * page's message is the provider's answer to the last sign-in attempt, which an empty field does
   * not replace.
   */
  keepStateWhenInvalid?: boolean;
}

/**
 * The submit of every form: validate (the error summary takes the focus), then submitting, the
 * call, and success or the call's error code mapped to the page's message.
 */
export function useSubmit<K extends string>(
  form: { validateAll(): boolean },
  call: () => Promise<SubmitOutcome>,
  mapError: (code: string | undefined) => K,
  {
    initialError = null,
    initialState = 'idle',
    initialRetryAfterSeconds,
    keepStateWhenInvalid = false,
  }: SubmitOptions<K> = {},
) {
  const [state, setState] = useState<SubmitState>(initialState);
  const [error, setError] = useState<K | null>(initialError);
  const [retryAfterSeconds, setRetryAfterSeconds] = useState(initialRetryAfterSeconds);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Sent already: the inputs are disabled or the browser is on its way elsewhere.
    if (state === 'submitting' || state === 'success') return;
    if (!form.validateAll()) {
      if (!keepStateWhenInvalid) {
        setState('idle');
        setError(null);
      }
      return;
    }
    // The call reads the inputs before they are disabled (a disabled input is not part of the form).
    const sent = call();
    setState('submitting');
    setError(null);
    const outcome = await sent;
    if (outcome.ok) {
      setState('success');
    } else {
      setError(mapError(outcome.code));
      setRetryAfterSeconds(outcome.retryAfterSeconds);
      setState('failed');
    }
  }

  return {
    isSubmitting: state === 'submitting',
    isSuccess: state === 'success',
    isFailed: state === 'failed',
    /** The message to show above the form, or null. */
    error,
    /** With a too_many_requests message: how long the server asked to wait. */
    retryAfterSeconds,
    onSubmit,
  };
}
