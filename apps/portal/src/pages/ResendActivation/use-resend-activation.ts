import { normaliseEmail } from '@concierge/contracts';
import { useSearchParams } from 'wouter';
import { temporaryFailureKey } from '../../api/error-keys';
import { resendActivationEmail } from '../../api/portal-api';
import { validateEmail } from '../../hooks/field-validators';
import { useFormField, usePortalForm } from '../../hooks/use-portal-form';
import { useSubmit } from '../../hooks/use-submit';

/** spec §8: resend has a single message; ours: the provider or the database is out for the moment. */
function resendErrorKey(code: string | undefined) {
  return temporaryFailureKey(code) ?? 'resend_account_activation_email.error';
}

export function useResendActivation() {
  const [searchParams] = useSearchParams();
  // The login page sends unverified visitors here (spec §2: error=email_not_verified).
  const isNotVerified = searchParams.get('reason') === 'email_not_verified';
  const form = usePortalForm({
    fields: { email: useFormField(searchParams.get('email')?.trim() ?? '') },
    rules: { email: (values) => validateEmail(values.email) },
    validateOnBlur: true,
  });
  // The server answers the same for every address (architecture §6); so does this page.
  const submit = useSubmit(
    form,
    (values) => resendActivationEmail({ email: normaliseEmail(values.email) }),
    resendErrorKey,
  );

  return { form, submit, isNotVerified };
}
