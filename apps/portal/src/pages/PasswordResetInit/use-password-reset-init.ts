import { normaliseEmail } from '@concierge/contracts';
import { useSearchParams } from 'wouter';
import { passwordResetInitErrorKey } from '../../api/error-keys';
import { initiatePasswordReset } from '../../api/portal-api';
import { useRequestContext } from '../../app/sign-in-request/RequestContext';
import { useTenant } from '../../config/tenant';
import { validateEmail } from '../../hooks/field-validators';
import { useFormField, usePortalForm } from '../../hooks/use-portal-form';
import { useSubmit } from '../../hooks/use-submit';

export function usePasswordResetInit() {
  const [searchParams] = useSearchParams();
  const tenant = useTenant();
  // spec §5: a reset belongs to a sign-in request. The server renders the page with one; only when
  // none can be had at all does the page say so instead of showing the form.
  const { status, settled } = useRequestContext();
  // spec §5: this form validates only the e-mail.
  const form = usePortalForm({
    fields: { email: useFormField(searchParams.get('email')?.trim() ?? '') },
    rules: { email: (values) => validateEmail(values.email) },
    validateOnBlur: true,
  });
  const error = searchParams.get('error');
  const submit = useSubmit(
    form,
    async (values) => {
      const request = await settled();
      if (request.status !== 'ready') return { ok: false, code: 'missing_request_id' };
      // One answer for every address: the page tells nobody whether an account exists.
      return initiatePasswordReset({
        requestId: request.requestId,
        email: normaliseEmail(values.email),
        processingType: 'LINK',
        resetMedium: 'email',
        // An expired request id is renewed from this tenant's client.
        ...(tenant.isRequested ? { subdomain: tenant.subdomain } : {}),
      });
    },
    passwordResetInitErrorKey,
    { initialError: error ? passwordResetInitErrorKey(error) : null },
  );

  return { form, submit, hasRequestId: status === 'checking' || status === 'ready' };
}
