import { type FormEvent, useState } from 'react';

/** What a submit's call answers: a PortalApiResult, or a page's own outcome of the same shape. */
export type SubmitOutcome = { ok: true } | { ok: false; code: string | undefined };

/**
 * spec §4: idle (nothing sent yet, or the input was invalid), submitting (the inputs are disabled),
 * success (the success message replaces the form) and failed (the form stays, with the error above).
 */
type SubmitState = 'idle' | 'submitting' | 'success' | 'failed';

interface SubmitOptions<K> {
  /** The message the page opens with (its `error` query value, mapped), until the next submit. */
  initialError?: K | null;
  /**
   * Invalid input leaves the state and message as they are instead of returning to idle: the login
   * page's message is the provider's answer to the last sign-in attempt, which an empty field does
   * not replace.
   */
  keepStateWhenInvalid?: boolean;
}

/**
 * The submit of every form: validate (the first invalid field takes the focus), then submitting,
 * the call, and success or the call's error code mapped to the page's message.
 */
export function useSubmit<V, K extends string>(
  form: { validateAll(): boolean; getValues(): V },
  call: (values: V) => Promise<SubmitOutcome>,
  mapError: (code: string | undefined) => K,
  { initialError = null, keepStateWhenInvalid = false }: SubmitOptions<K> = {},
) {
  const [state, setState] = useState<SubmitState>('idle');
  const [error, setError] = useState<K | null>(initialError);

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
    setState('submitting');
    setError(null);
    const outcome = await call(form.getValues());
    if (outcome.ok) {
      setState('success');
    } else {
      setError(mapError(outcome.code));
      setState('failed');
    }
  }

  return {
    isSubmitting: state === 'submitting',
    isSuccess: state === 'success',
    isFailed: state === 'failed',
    /** The message to show above the form, or null. */
    error,
    onSubmit,
  };
}
