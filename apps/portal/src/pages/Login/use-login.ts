import { type LoginErrorCode, toLoginErrorCode } from '@concierge/contracts';
import { useState } from 'react';
import { useSearchParams } from 'wouter';
import { fetchFailedLoginCounter } from '../../api/failed-login-counter';
import { checkUserExistence } from '../../api/provider';
import { rememberCounterBeforeAttempt } from '../../app/session-params';
import { isRegistrationEnabled, useRequestContext } from '../../app/sign-in-request/RequestContext';
import { useRuntimeConfig } from '../../config/runtime-config';
import { useTenant } from '../../config/tenant';
import { useFailedLoginMessage } from '../../hooks/use-failed-login-message';
import { usePortalForm } from '../../hooks/use-portal-form';
import { type SubmitOutcome, useSubmit } from '../../hooks/use-submit';

/** The page's own address for a form sent without a request: what the provider sent back stays behind. */
function retryAddress(searchParams: URLSearchParams): string {
  const query = new URLSearchParams(searchParams);
  for (const name of ['error', 'error_description', 'username']) query.delete(name);
  return query.size > 0 ? `/login?${query}` : '/login';
}

/** What the page says above the form: the provider's answer, or that there is no request to sign in to. */
type LoginMessage = LoginErrorCode | 'missing_request_id';

export function useLogin() {
  const { cidaasBaseUrl, restApiBaseUrl } = useRuntimeConfig();
  const tenant = useTenant();
  const [searchParams] = useSearchParams();
  const { requestId, clientInfo, notice } = useRequestContext();
  const errorParameter = searchParams.get('error');
  const attemptedEmail = (searchParams.get('username') ?? '').trim();
  // spec §5: login checks only that both fields are filled; each on blur, both on submit.
  const form = usePortalForm({
    checks: {
      username: (value) => (value('username') ? undefined : 'login.validation.emailRequired'),
      password: (value) => (value('password') ? undefined : 'login.validation.passwordRequired'),
    },
  });
  // The forgot-password link takes the address typed so far along.
  const [typedEmail, setTypedEmail] = useState(attemptedEmail);

  async function signIn(): Promise<SubmitOutcome> {
    const email = form.value('username');
    if (requestId) {
      // The count before the attempt, asked alongside: the page after it waits for the attempt's event.
      const [existence, counter] = await Promise.all([
        checkUserExistence(cidaasBaseUrl, requestId, email),
        fetchFailedLoginCounter(restApiBaseUrl, tenant.subdomain, email),
      ]);
      if (counter !== null) rememberCounterBeforeAttempt(email, counter);
      if (existence.kind === 'redirect') {
        window.location.assign(existence.url);
        return { ok: true };
      }
    }
    // Known or not, the form goes to the provider: it answers an unknown e-mail exactly like a
    // wrong password, so this page never tells anybody whether an address has an account. Without a
    // request it goes to the server, which shows the page again with the e-mail kept.
    form.formRef.current?.submit();
    return { ok: true };
  }

  const submit = useSubmit(form, signIn, toLoginErrorCode, {
    initialError: errorParameter ? toLoginErrorCode(errorParameter) : null,
    keepStateWhenInvalid: true,
  });
  let formError: LoginMessage | null = useFailedLoginMessage(submit.error, attemptedEmail);
  // The notice above the page says why a form was not sent; without one, a page without a request
  // is one the provider gave none for (spec §2, a tenant flagged to stay): it says so.
  if (notice && formError === 'not_sent') formError = null;
  if (!requestId && !notice) formError = 'missing_request_id';

  return {
    // Without a request the provider could only answer with an error of its own: the form goes to
    // the server instead, which shows the page again with a fresh request once there is one.
    action: requestId ? `${cidaasBaseUrl}/login-srv/login` : retryAddress(searchParams),
    requestId,
    form,
    formError,
    isRegistrationEnabled: isRegistrationEnabled(clientInfo, tenant.flags, searchParams.get('invite_id')),
    // Also once sent: the browser is then on its way to the provider.
    isSubmitting: submit.isSubmitting || submit.isSuccess,
    onSubmit: submit.onSubmit,
    // spec §2: `username` prefills the e-mail (the provider sends it back after a failed attempt).
    attemptedEmail,
    typedEmail,
    setTypedEmail,
  };
}
