import { useState } from 'react';

/**
 * spec §4: every form (register, reset init, set password, resend) has a submit state.
 * Invalid input returns to IDLE.
 */
export const SubmitState = {
  /** Nothing sent (yet), or the input was invalid. */
  IDLE: 0,
  /** The call is under way; the inputs are disabled. */
  SUBMITTING: 1,
  /** The success message replaces the form. */
  SUCCESS: 2,
  /** The form stays, with the error above it. */
  FAILED: 3,
} as const;
export type SubmitState = (typeof SubmitState)[keyof typeof SubmitState];

export function useSubmitState() {
  const [state, setState] = useState<SubmitState>(SubmitState.IDLE);
  return {
    state,
    isSubmitting: state === SubmitState.SUBMITTING,
    isSuccess: state === SubmitState.SUCCESS,
    isFailed: state === SubmitState.FAILED,
    /** The input was invalid: back to idle (a previous error goes away). */
    toIdle: () => setState(SubmitState.IDLE),
    toSubmitting: () => setState(SubmitState.SUBMITTING),
    toSuccess: () => setState(SubmitState.SUCCESS),
    toFailed: () => setState(SubmitState.FAILED),
  };
}
