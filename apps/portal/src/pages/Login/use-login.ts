import { type LoginErrorCode, toLoginErrorCode } from '@concierge/contracts';
import { type FormEvent, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { fetchFailedLoginCounter } from '../../api/failed-login-counter';
import { checkUserExistence } from '../../api/provider';
import { rememberCounterBeforeAttempt } from '../../app/session-params';
import { isRegistrationEnabled, useRequestContext } from '../../app/sign-in-request/RequestContext';
import { useRuntimeConfig } from '../../config/runtime-config';
import { useTenant } from '../../config/tenant';
import { useFailedLoginMessage } from '../../hooks/use-failed-login-message';

export interface LoginFieldErrors {
  email?: 'login.validation.emailRequired';
  password?: 'login.validation.passwordRequired';
}

/** The page's own address for a form sent without a request: what the provider sent back stays behind. */
function retryAddress(searchParams: URLSearchParams): string {
  const query = new URLSearchParams(searchParams);
  for (const name of ['error', 'error_description', 'username']) query.delete(name);
  return query.size > 0 ? `/login?${query}` : '/login';
}

export function useLogin() {
  const { cidaasBaseUrl, restApiBaseUrl } = useRuntimeConfig();
  const tenant = useTenant();
  const [searchParams] = useSearchParams();
  const { requestId, clientInfo, status, settled } = useRequestContext();
  const errorParameter = searchParams.get('error');
  const attemptedEmail = (searchParams.get('username') ?? '').trim();
  const formRef = useRef<HTMLFormElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  // spec §2: `username` prefills the e-mail (the provider sends it back after a failed attempt)
  const [email, setEmail] = useState(attemptedEmail);
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<LoginFieldErrors>({});
  const [formError, setFormError] = useState<LoginErrorCode | 'missing_request_id' | null>(() =>
    errorParameter ? toLoginErrorCode(errorParameter) : null,
  );
  const shownError = useFailedLoginMessage(
    formError === 'missing_request_id' ? null : formError,
    attemptedEmail,
  );
  const [isSubmitting, setSubmitting] = useState(false);

  function validate(): LoginFieldErrors {
    const errors: LoginFieldErrors = {};
    if (!email) errors.email = 'login.validation.emailRequired';
    if (!password) errors.password = 'login.validation.passwordRequired';
    setFieldErrors(errors);
    return errors;
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isSubmitting) return;
    const errors = validate();
    if (errors.email || errors.password) {
      (errors.email ? emailRef : passwordRef).current?.focus();
      return;
    }
    setSubmitting(true);
    setFormError(null);
    // Sent before the page's request was settled (Enter on a bookmarked page): it waits for it.
    const request = await settled();
    if (request.status !== 'ready') {
      setSubmitting(false);
      setFormError('missing_request_id');
      return;
    }
    // The count before the attempt, asked alongside: the page after it waits for the attempt's event.
    const [existence, counter] = await Promise.all([
      checkUserExistence(cidaasBaseUrl, request.requestId, email),
      fetchFailedLoginCounter(restApiBaseUrl, tenant.subdomain, email),
    ]);
    if (counter !== null) rememberCounterBeforeAttempt(email, counter);
    if (existence.kind === 'redirect') {
      window.location.assign(existence.url);
      return;
    }
    // Known or not, the form goes to the provider: it answers an unknown e-mail exactly like a wrong
    // password, so this page never tells anybody whether an address has an account.
    formRef.current?.submit();
  }

  return {
    // Without a request the provider could only answer with an error of its own: a form sent
    // without JavaScript then goes to the server, which shows the page again with a fresh request.
    action: status === 'ready' ? `${cidaasBaseUrl}/login-srv/login` : retryAddress(searchParams),
    requestId,
    email,
    setEmail: (value: string) => setEmail(value.trim()),
    password,
    setPassword,
    fieldErrors,
    formError: formError === 'missing_request_id' ? formError : shownError,
    isRegistrationEnabled: isRegistrationEnabled(clientInfo, tenant.flags, searchParams.get('invite_id')),
    isSubmitting,
    onSubmit,
    formRef,
    emailRef,
    passwordRef,
  };
}
