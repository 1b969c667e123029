import { normaliseEmail, normaliseRegistrationCode } from '@concierge/contracts';
import { useSearchParams } from 'wouter';
import { registerErrorKey } from '../../api/error-keys';
import { registerUser } from '../../api/portal-api';
import { useTenant } from '../../config/tenant';
import {
  validateEmail,
  validateNewPassword,
  validatePasswordConfirmation,
  validateRegistrationCode,
  validateTermsAccepted,
} from '../../hooks/field-validators';
import { useFormField, usePortalForm } from '../../hooks/use-portal-form';
import { useSubmit } from '../../hooks/use-submit';

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
  const inviteId = searchParams.get('invite_id')?.trim() || undefined;
  const queryEmail = searchParams.get('email')?.trim() ?? '';
  const queryCode = registrationCodeFromQuery(searchParams);
  // spec §2 and §6: an invitation fixes e-mail and code. A field the invitation link left empty stays
  // editable, or the visitor could not register at all.
  const isEmailReadOnly = Boolean(inviteId && queryEmail);
  const isCodeReadOnly = Boolean(inviteId && queryCode);

  // spec §3: the registration form (invite_id comes from the query only).
  const form = usePortalForm({
    fields: {
      email: useFormField(queryEmail),
      password: useFormField(''),
      passwordConfirmation: useFormField(''),
      registrationCode: useFormField(queryCode),
      termsAccepted: useFormField(false),
    },
    rules: {
      email: (values) => validateEmail(values.email),
      password: (values) => validateNewPassword(values.password),
      passwordConfirmation: (values) =>
        validatePasswordConfirmation(values.password, values.passwordConfirmation),
      registrationCode: (values) => validateRegistrationCode(values.registrationCode),
      termsAccepted: (values) => validateTermsAccepted(values.termsAccepted),
    },
    validateOnBlur: true,
  });
  const submit = useSubmit(
    form,
    (values) =>
      registerUser({
        // spec §5: registration lower-cases the e-mail.
        email: normaliseEmail(values.email),
        password: values.password,
        registrationcode:
          normaliseRegistrationCode(values.registrationCode) ?? values.registrationCode.trim(),
        clientid: tenant.clientId,
        invite_id: inviteId,
      }),
    registerErrorKey,
    // spec §8: the page's `error` query value through the allow-list, else the default message.
    { initialError: errorFromQuery(searchParams) },
  );

  /**
   * The code as typed or pasted from the letter (any case, with or without hyphens, spaces, text
   * around it) is shown as printed once the field is left, then checked.
   */
  function onRegistrationCodeBlur() {
    const typed = form.getValues().registrationCode;
    const code = normaliseRegistrationCode(typed);
    if (code && code !== typed) form.setFieldValue('registrationCode', code);
    form.onBlur('registrationCode');
  }

  return {
    form,
    submit,
    onRegistrationCodeBlur,
    // The inputs are gone with the success message; the form still holds what was sent.
    registeredEmail: submit.isSuccess ? normaliseEmail(form.values.email) : '',
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
