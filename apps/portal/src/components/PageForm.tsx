import { FORM_NAME_FIELD, FORM_TOKEN_FIELD, type PortalCallName } from '@concierge/contracts';
import { Stack } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import type { ErrorTextKey } from '../config/durations';
import { useErrorText } from '../config/durations';
import { useFormToken } from '../config/posted-form';
import type { PortalFormState } from '../hooks/use-portal-form';
import { ErrorSummary } from './ErrorSummary';
import { ErrorMessage } from './Feedback';

interface PageFormProps {
  form: PortalFormState;
  /** The submit (hooks/use-submit.ts): its handler, and the call's refusal shown above the inputs. */
  submit: {
    onSubmit: (event: FormEvent<HTMLFormElement>) => void;
    error?: ErrorTextKey | null;
    isFailed?: boolean;
    retryAfterSeconds?: number;
  };
  /** What goes with the refusal (a link to a way out). */
  afterError?: ReactNode;
  /**
   * The form's call, for a page with a second form (the register page's request for a new
   * invitation): without the script the server tells the two apart by it.
   */
  call?: PortalCallName;
  children: ReactNode;
}

/**
 * A form of the portal's own server: posted to its page without the script (the server answers
 * with the page and the outcome, routes/portal-forms.ts), sent as JSON with it. The page's token
 * goes along so the server knows the post came from this page.
 */
export function PageForm({ form, submit, afterError, call, children }: PageFormProps) {
  const token = useFormToken();
  const errorText = useErrorText();
  return (
    <form ref={form.formRef} method="post" onSubmit={submit.onSubmit} noValidate>
      <input type="hidden" name={FORM_TOKEN_FIELD} value={token} />
      {call && <input type="hidden" name={FORM_NAME_FIELD} value={call} />}
      <Stack gap="md">
        <ErrorSummary summary={form.summary} />
        {submit.error && (
          <Stack gap="xs">
            <ErrorMessage focusOnMount={submit.isFailed}>
              {errorText(submit.error, submit.retryAfterSeconds)}
            </ErrorMessage>
            {afterError}
          </Stack>
        )}
        {children}
      </Stack>
    </form>
  );
}
