import { passwordResetInitForm } from '@concierge/contracts';
import { useSearchParams } from 'wouter';
import { passwordResetInitErrorKey } from '../../api/error-keys';
import { useRequestContext } from '../../app/sign-in-request/RequestContext';
import { useTenant } from '../../config/tenant';
import { usePageForm } from '../../hooks/use-page-form';

export function usePasswordResetInit() {
  const [searchParams] = useSearchParams();
  const tenant = useTenant();
  // spec §5: a reset belongs to a sign-in request. The server renders the page with one. While the
  // provider is away the form stays, with what the tenant typed, and the server gets a fresh request
  // when it is sent; only a page the provider gives no request for at all says so instead (spec §2).
  const { notice, requestId } = useRequestContext();
  const error = searchParams.get('error');
  // spec §5: this form validates only the e-mail. One answer for every address: the page tells
  // nobody whether an account exists.
  const page = usePageForm(passwordResetInitForm, {
    errorKey: passwordResetInitErrorKey,
    initialError: error ? passwordResetInitErrorKey(error) : null,
  });

  return {
    ...page,
    email: page.postedValue('email') ?? searchParams.get('email')?.trim() ?? '',
    // Sent without JavaScript, the server gets a fresh request id from this tenant's client when
    // this one has none or it has expired (password-reset/initiate-reset.ts).
    requestId,
    subdomain: tenant.isRequested ? tenant.subdomain : '',
    showsForm: requestId !== '' || notice !== null,
  };
}
