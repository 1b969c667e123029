import { normaliseEmail, PROVIDER_UNREACHABLE } from '@concierge/contracts';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PROVIDER_UNREACHABLE_KEY } from '../../api/error-keys';
import { resendActivationEmail } from '../../api/portal-api';
import { validateEmail } from '../../hooks/field-validators';
import { useFormFields } from '../../hooks/use-form-fields';
import { useSubmitState } from '../../hooks/use-submit-state';

export function useResendActivation() {
  const [searchParams] = useSearchParams();
  // The login page sends unverified visitors here (spec §2: error=email_not_verified).
  const isNotVerified = searchParams.get('reason') === 'email_not_verified';
  const form = useFormFields(() => ({ email: searchParams.get('email')?.trim() ?? '' }), {
    email: (values) => validateEmail(values.email),
  });
  const submit = useSubmitState();
  const [errorKey, setErrorKey] = useState<
    typeof PROVIDER_UNREACHABLE_KEY | 'resend_account_activation_email.error'
  >('resend_account_activation_email.error');

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submit.isSubmitting) return;
    if (!form.validateAll()) {
      submit.toIdle();
      return;
    }
    submit.toSubmitting();
    // The server answers the same for every address (architecture §6); so does this page.
    const result = await resendActivationEmail({ email: normaliseEmail(form.values.email) });
    if (result.ok) {
      submit.toSuccess();
      return;
    }
    setErrorKey(
      result.code === PROVIDER_UNREACHABLE
        ? PROVIDER_UNREACHABLE_KEY
        : 'resend_account_activation_email.error',
    );
    submit.toFailed();
  }

  return { form, submit, errorKey, isNotVerified, onSubmit };
}
