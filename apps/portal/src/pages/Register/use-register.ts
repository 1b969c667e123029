import { FIELD, normaliseEmail, normaliseRegistrationCode, registerForm } from '@concierge/contracts';
import { useState } from 'react';
import { useSearchParams } from 'wouter';
import { registerErrorKey } from '../../api/error-keys';
import { callPortal } from '../../api/portal-api';
import { useTenant } from '../../config/tenant';
import { usePageForm } from '../../hooks/use-page-form';

/**
 * spec §2: `registrationcode` or `code` carries the code; the value 'empty' is not a code. It is
 * shown grouped as printed on the letter.
 */
export function registrationCodeFromQuery(searchParams: URLSearchParams): string {
  for (const name of ['registrationcode', 'code']) {
    const value = searchParams.get(name)?.trim();
    if (value && value.toLowerCase() !== 'empty') return normaliseRegistrationCode(value) ?? value;
  }
  return '';
}

export function useRegister() {
  const tenant = useTenant();
  const [searchParams] = useSearchParams();
  const inviteId = searchParams.get('invite_id')?.trim() ?? '';
  const queryEmail = searchParams.get('email')?.trim() ?? '';
  const queryCode = registrationCodeFromQuery(searchParams);
  // spec §2 and §6: an invitation fixes e-mail and code. A field the invitation link left empty stays
  // editable, or the visitor could not register at all.
  const isEmailReadOnly = Boolean(inviteId && queryEmail);
  const isCodeReadOnly = Boolean(inviteId && queryCode);
  // The inputs are gone with the success message; the address sent stays for it.
  const [sentEmail, setSentEmail] = useState('');

  // spec §3: the registration form (invite_id comes from the query only).
  const page = usePageForm(registerForm, {
    send: (body) => {
      setSentEmail(body.email);
      return callPortal('register-user', body);
    },
    errorKey: registerErrorKey,
    // spec §8: the page's `error` query value through the allow-list, else the default message.
    initialError: errorFromQuery(searchParams),
  });
  const { postedValue } = page;

  /**
   * The code as typed or pasted from the letter (any case, with or without hyphens, spaces, text
   * around it) is shown as printed once the field is left, then checked.
   */
  function normaliseCodeInput(input: HTMLInputElement) {
    const code = normaliseRegistrationCode(input.value);
    if (code && code !== input.value) input.value = code;
  }

  return {
    ...page,
    normaliseCodeInput,
    defaults: {
      email: postedValue(FIELD.email) ?? queryEmail,
      registrationCode: postedValue(FIELD.registrationCode) ?? queryCode,
      termsAccepted: postedValue(FIELD.terms) !== undefined,
    },
    clientId: tenant.clientId,
    inviteId,
    registeredEmail: page.submit.isSuccess
      ? normaliseEmail(sentEmail || (postedValue(FIELD.email) ?? ''))
      : '',
    isInvitation: Boolean(inviteId),
    isEmailReadOnly,
    isCodeReadOnly,
    showLoginLink: !tenant.flags.hideRegisterLoginLink,
  };
}

function errorFromQuery(searchParams: URLSearchParams) {
  const error = searchParams.get('error');
  return error ? registerErrorKey(error, 'default') : null;
}
