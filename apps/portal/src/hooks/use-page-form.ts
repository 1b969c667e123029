import type { PortalCallBody, PortalCallName, PortalForm } from '@concierge/contracts';
import { callPortal } from '../api/portal-api';
import { usePostedForm } from '../config/posted-form';
import { type FieldChecks, usePortalForm, type ValidationKey } from './use-portal-form';
import { type SubmitOutcome, useSubmit } from './use-submit';

interface PageFormOptions<N extends PortalCallName, K extends string> {
  /**
   * What the submit does with the form's body (contracts' portal-forms.ts builds it from the
   * inputs); the form's call unless the page does more around it.
   */
  send?: (body: PortalCallBody<N>) => Promise<SubmitOutcome>;
  /** The page's message for a call's error code (spec §8). */
  errorKey: (code: string | undefined) => K;
  /** The page's message from its address (`error`), when the server has not answered a form. */
  initialError?: K | null;
}

/**
 * One of the portal's own forms (contracts' portal-forms.ts) on its page: its inputs and checks,
 * and its submit, starting where the server left it when the form was posted without JavaScript.
 */
export function usePageForm<N extends PortalCallName, K extends string>(
  definition: PortalForm<N>,
  {
    send = (body) => callPortal(definition.call, body),
    errorKey,
    initialError = null,
  }: PageFormOptions<N, K>,
) {
  const posted = usePostedForm(definition);
  const refused = posted?.status === 'refused' ? posted : undefined;
  const form = usePortalForm({
    checks: keyedChecks(definition),
    initialErrors: refused?.fieldErrors.map(([name, code]) => [name, `register.error.${code}`] as const),
  });
  const submit = useSubmit(form, () => send(definition.body(form.value)), errorKey, {
    initialError: refused?.code ? errorKey(refused.code) : initialError,
    initialState: posted?.status === 'sent' ? 'success' : refused?.code ? 'failed' : 'idle',
    initialRetryAfterSeconds: refused?.retryAfterSeconds,
  });
  return {
    form,
    submit,
    posted,
    /** What an input held when the server answered the form (its kept inputs only). */
    postedValue: (name: string): string | undefined => posted?.values[name],
  };
}

function keyedChecks<N extends PortalCallName>(definition: PortalForm<N>): FieldChecks {
  return Object.fromEntries(
    Object.entries(definition.checks).map(([name, check]) => [
      name,
      (value) => {
        const code = check(value);
        return code ? (`register.error.${code}` as ValidationKey) : undefined;
      },
    ]),
  );
}
