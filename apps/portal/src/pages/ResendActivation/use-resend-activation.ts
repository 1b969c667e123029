import { resendActivationForm } from '@concierge/contracts';
import { useSearchParams } from 'wouter';
import { temporaryFailureKey } from '../../api/error-keys';
import { useTenant } from '../../config/tenant';
import { usePageForm } from '../../hooks/use-page-form';

/** spec §8: resend has a single message; ours: the provider or the database is out for the moment. */
function resendErrorKey(code: string | undefined) {
  return temporaryFailureKey(code) ?? 'resend_account_activation_email.error';
}

export function useResendActivation() {
  const [searchParams] = useSearchParams();
  const tenant = useTenant();
  // The login page sends unverified visitors here (spec §2: error=email_not_verified).
  const isNotVerified = searchParams.get('reason') === 'email_not_verified';
  // The server answers the same for every address (architecture §6); so does this page.
  const page = usePageForm(resendActivationForm, {
    errorKey: resendErrorKey,
  });
  return {
    ...page,
    isNotVerified,
    email: page.postedValue('email') ?? searchParams.get('email')?.trim() ?? '',
    // The brand of the note an active account gets instead of the link (a hidden input).
    subdomain: tenant.isRequested ? tenant.subdomain : '',
  };
}
