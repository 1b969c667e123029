import { normaliseEmail } from '@concierge/contracts';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { type PasswordResetInitErrorKey, passwordResetInitErrorKey } from '../../api/error-keys';
import { initiatePasswordReset } from '../../api/portal-api';
import { useTenant } from '../../config/tenant';
import { validateEmail } from '../../hooks/field-validators';
import { useFormFields } from '../../hooks/use-form-fields';
import { useSubmitState } from '../../hooks/use-submit-state';

export function usePasswordResetInit() {
  const [searchParams] = useSearchParams();
  const tenant = useTenant();
  // spec §5: a reset belongs to a sign-in request; without one there is nothing to start.
  const requestId = searchParams.get('requestId')?.trim() ?? '';
  // spec §5: this form validates only the e-mail.
  const form = useFormFields(() => ({ email: searchParams.get('email')?.trim() ?? '' }), {
    email: (values) => validateEmail(values.email),
  });
  const submit = useSubmitState();
  const [errorKey, setErrorKey] = useState<PasswordResetInitErrorKey | null>(() => {
    const error = searchParams.get('error');
    return error ? passwordResetInitErrorKey(error) : null;
  });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submit.isSubmitting || !requestId) return;
    setErrorKey(null);
    if (!form.validateAll()) {
      submit.toIdle();
      return;
    }
    submit.toSubmitting();
    // One answer for every address: the page tells nobody whether an account exists.
    const result = await initiatePasswordReset({
      requestId,
      email: normaliseEmail(form.values.email),
      processingType: 'LINK',
      resetMedium: 'email',
      // An expired request id is renewed from this tenant's client.
      ...(tenant.isRequested ? { subdomain: tenant.subdomain } : {}),
    });
    if (result.ok) {
      submit.toSuccess();
    } else {
      setErrorKey(passwordResetInitErrorKey(result.code));
      submit.toFailed();
    }
  }

  return { form, submit, errorKey, hasRequestId: Boolean(requestId), onSubmit };
}
