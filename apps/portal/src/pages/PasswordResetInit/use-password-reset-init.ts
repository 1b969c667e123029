import { normaliseEmail } from '@concierge/contracts';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { type PasswordResetInitErrorKey, passwordResetInitErrorKey } from '../../api/error-keys';
import { initiatePasswordReset } from '../../api/portal-api';
import { useRequestContext } from '../../app/sign-in-request/RequestContext';
import { useTenant } from '../../config/tenant';
import { validateEmail } from '../../hooks/field-validators';
import { useFormFields } from '../../hooks/use-form-fields';
import { useSubmitState } from '../../hooks/use-submit-state';

export function usePasswordResetInit() {
  const [searchParams] = useSearchParams();
  const tenant = useTenant();
  // spec §5: a reset belongs to a sign-in request. The server renders the page with one; only when
  // none can be had at all does the page say so instead of showing the form.
  const { status, settled } = useRequestContext();
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
    if (submit.isSubmitting) return;
    setErrorKey(null);
    if (!form.validateAll()) {
      submit.toIdle();
      return;
    }
    submit.toSubmitting();
    const request = await settled();
    if (request.status !== 'ready') {
      setErrorKey('password_reset.init.error.missing_request_id');
      submit.toFailed();
      return;
    }
    // One answer for every address: the page tells nobody whether an account exists.
    const result = await initiatePasswordReset({
      requestId: request.requestId,
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

  return { form, submit, errorKey, hasRequestId: status === 'checking' || status === 'ready', onSubmit };
}
