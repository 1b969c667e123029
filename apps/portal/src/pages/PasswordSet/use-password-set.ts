import { type FormEvent, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { type PasswordSetErrorKey, passwordSetErrorKey } from '../../api/error-keys';
import { setNewPassword } from '../../api/portal-api';
import { useTenant } from '../../config/tenant';
import { assignLocation, currentLocation } from '../../hooks/browser-location';
import { validateNewPassword, validatePasswordConfirmation } from '../../hooks/field-validators';
import { useDropQueryParameters } from '../../hooks/use-drop-query-parameters';
import { useFormFields } from '../../hooks/use-form-fields';
import { linkWithQuery } from '../../hooks/use-link-with-query';
import { useSubmitState } from '../../hooks/use-submit-state';
import { trustedRedirectTarget, withSubdomain } from './redirect-target';

/**
 * spec §2: the link's parameters, each with the name the missing-parameter message uses. cidaas's
 * hosted-page example writes `exchangeId`, its newer docs `exchangeid`: either is the exchange id.
 */
const REQUIRED_PARAMETERS = [
  { query: ['requestId'], name: 'requestId' },
  { query: ['rprq'], name: 'resetRequestId' },
  { query: ['exchangeId', 'exchangeid'], name: 'exchangeId' },
] as const;

type LinkParameter = (typeof REQUIRED_PARAMETERS)[number]['name'];

/** The one-time reset ids: the next page has no use for them. */
export const RESET_LINK_PARAMETERS = ['rprq', 'exchangeId', 'exchangeid'];

export function usePasswordSet() {
  const tenant = useTenant();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const parameter = (...names: readonly string[]) =>
    names.map((name) => searchParams.get(name)?.trim() ?? '').find(Boolean) ?? '';
  // Read once: the one-time ids leave the address bar right away, the submit still needs them.
  const [link] = useState(
    () =>
      Object.fromEntries(REQUIRED_PARAMETERS.map(({ query, name }) => [name, parameter(...query)])) as Record<
        LinkParameter,
        string
      >,
  );
  useDropQueryParameters(RESET_LINK_PARAMETERS);
  const missingParameter = REQUIRED_PARAMETERS.find(({ name }) => !link[name])?.name;
  const email = parameter('email');
  // spec §5: this form validates password and confirmation only.
  const form = useFormFields(() => ({ password: '', passwordConfirmation: '' }), {
    password: (values) => validateNewPassword(values.password),
    passwordConfirmation: (values) =>
      validatePasswordConfirmation(values.password, values.passwordConfirmation),
  });
  const submit = useSubmitState();
  const [errorKey, setErrorKey] = useState<PasswordSetErrorKey | null>(() => {
    const error = searchParams.get('error');
    return error ? passwordSetErrorKey(error) : null;
  });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submit.isSubmitting || missingParameter) return;
    setErrorKey(null);
    if (!form.validateAll()) {
      submit.toIdle();
      return;
    }
    submit.toSubmitting();
    const result = await setNewPassword({
      resetRequestId: link.resetRequestId,
      exchangeId: link.exchangeId,
      password: form.values.password,
      confirmpassword: form.values.passwordConfirmation,
      requestId: link.requestId,
      email: email || undefined,
    });
    if (!result.ok) {
      setErrorKey(passwordSetErrorKey(result.code));
      submit.toFailed();
      return;
    }
    submit.toSuccess();
    // spec §7: follow data.redirect_uri with the subdomain added when known (the tenant the server
    // resolved from the query) — onto a trusted origin only; otherwise this portal's success page.
    const here = currentLocation();
    const target = result.data.redirect_uri
      ? trustedRedirectTarget(result.data.redirect_uri, [here.origin, tenant.portalUrl], here.href)
      : null;
    if (target) {
      assignLocation(withSubdomain(target, tenant.isRequested ? tenant.subdomain : undefined).href);
    } else {
      navigate(linkWithQuery('/password-set-success', searchParams, { omit: RESET_LINK_PARAMETERS }));
    }
  }

  return { form, submit, errorKey, missingParameter, email, onSubmit };
}
