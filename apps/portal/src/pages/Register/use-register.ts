import { normaliseEmail, normaliseRegistrationCode } from '@concierge/contracts';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { type RegisterErrorKey, registerErrorKey } from '../../api/error-keys';
import { registerUser } from '../../api/portal-api';
import { useTenant } from '../../config/tenant';
import {
  validateEmail,
  validateNewPassword,
  validatePasswordConfirmation,
  validateRegistrationCode,
  validateTermsAccepted,
} from '../../hooks/field-validators';
import { useFormFields } from '../../hooks/use-form-fields';
import { useSubmitState } from '../../hooks/use-submit-state';

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

/** spec §3: the registration form (invite_id comes from the query only). */
interface RegistrationValues extends Record<string, string | boolean> {
  email: string;
  password: string;
  passwordConfirmation: string;
  registrationCode: string;
  termsAccepted: boolean;
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

  const form = useFormFields<RegistrationValues>(
    () => ({
      email: queryEmail,
      password: '',
      passwordConfirmation: '',
      registrationCode: queryCode,
      termsAccepted: false,
    }),
    {
      email: (values) => validateEmail(values.email),
      password: (values) => validateNewPassword(values.password),
      passwordConfirmation: (values) =>
        validatePasswordConfirmation(values.password, values.passwordConfirmation),
      registrationCode: (values) => validateRegistrationCode(values.registrationCode),
      termsAccepted: (values) => validateTermsAccepted(values.termsAccepted),
    },
  );
  const submit = useSubmitState();
  // spec §8: the page's `error` query value through the allow-list, else the default message.
  const [errorKey, setErrorKey] = useState<RegisterErrorKey | null>(() => {
    const error = searchParams.get('error');
    return error ? registerErrorKey(error, 'default') : null;
  });
  const [registeredEmail, setRegisteredEmail] = useState('');

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submit.isSubmitting) return;
    setErrorKey(null);
    if (!form.validateAll()) {
      submit.toIdle();
      return;
    }
    const { values } = form;
    // spec §5: registration lower-cases the e-mail.
    const email = normaliseEmail(values.email);
    submit.toSubmitting();
    const result = await registerUser({
      email,
      password: values.password,
      registrationcode: normaliseRegistrationCode(values.registrationCode) ?? values.registrationCode.trim(),
      clientid: tenant.clientId,
      invite_id: inviteId,
    });
    if (result.ok) {
      setRegisteredEmail(email);
      submit.toSuccess();
    } else {
      setErrorKey(registerErrorKey(result.code));
      submit.toFailed();
    }
  }

  /**
   * The code as typed or pasted from the letter (any case, with or without hyphens, spaces, text
   * around it) is shown as printed once the field is left, then checked.
   */
  function onRegistrationCodeBlur() {
    const code = normaliseRegistrationCode(form.values.registrationCode);
    if (code && code !== form.values.registrationCode) form.setValue('registrationCode', code);
    form.onBlur('registrationCode');
  }

  return {
    form,
    submit,
    onRegistrationCodeBlur,
    errorKey,
    registeredEmail,
    isInvitation: Boolean(inviteId),
    isEmailReadOnly,
    isCodeReadOnly,
    showLoginLink: !tenant.flags.hideRegisterLoginLink,
    onSubmit,
  };
}
