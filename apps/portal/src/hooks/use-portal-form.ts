import type { FieldCode, FormValue } from '@concierge/contracts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../i18n/use-translation';

/**
 * spec §5: the validation messages. The register.error ones serve every form that checks an e-mail
 * or a new password (contracts' portal-forms.ts); the login page has its own two.
 */
export type ValidationKey =
  | `register.error.${FieldCode}`
  | 'login.validation.emailRequired'
  | 'login.validation.passwordRequired';

/** One check per input name, listed in form order; each reads any input of the form. */
export type FieldChecks = Readonly<Record<string, (value: FormValue) => ValidationKey | undefined>>;

interface PortalFormOptions {
  checks: FieldChecks;
  /** The messages the server gave a form posted without JavaScript (issue 25), shown from the start. */
  initialErrors?: readonly (readonly [string, ValidationKey])[];
}

/** The id of an input, for its label and for the error summary's link to it. */
export const fieldId = (name: string) => `field-${name}`;

/**
 * Every form of the portal: its inputs are the browser's own (uncontrolled), so what is typed
 * before the script runs stays typed, and a form sent before it (or without it) posts to the server
 * as it is. The script reads the inputs from the form when it needs them and adds the spec's timing
 * (§5): a field is checked when it loses focus, all fields on submit. A field that shows a message is
 * checked again as the visitor types, so the message goes as soon as the input is right. Messages
 * are translation keys, translated where the inputs get them.
 */
export function usePortalForm({ checks, initialErrors = [] }: PortalFormOptions) {
  const { t } = useTranslation();
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<Record<string, ValidationKey | undefined>>(() =>
    Object.fromEntries(initialErrors),
  );
  // The error summary shows once a submit found errors, and goes when none is left.
  const [isSummaryShown, setSummaryShown] = useState(initialErrors.length > 0);
  const summaryRef = useRef<HTMLDivElement>(null);
  const afterPress = useAfterPress();

  /** An input's value as the form would send it ('' for an unticked checkbox or a missing input). */
  function value(name: string): string {
    const element = formRef.current?.elements.namedItem(name);
    if (!(element instanceof HTMLInputElement)) return '';
    if (element.type === 'checkbox') return element.checked ? element.value : '';
    return element.value;
  }

  function check(name: string): ValidationKey | undefined {
    const key = checks[name]?.(value);
    setErrors((shown) => (shown[name] === key ? shown : { ...shown, [name]: key }));
    return key;
  }

  /** Checks every field and shows every message; with any, the summary takes the focus. */
  function validateAll(): boolean {
    const found = Object.keys(checks).filter((name) => check(name) !== undefined);
    if (found.length === 0) return true;
    setSummaryShown(true);
    // After the render that shows it (or brings it up to date).
    setTimeout(() => summaryRef.current?.focus(), 0);
    return false;
  }

  /** The inputs showing a message are checked again (the confirmation follows the password). */
  function recheckShown() {
    for (const name of Object.keys(checks)) if (errors[name]) check(name);
  }

  function fieldProps(name: string) {
    const key = errors[name];
    return {
      name,
      id: fieldId(name),
      onBlur: () => afterPress(() => check(name)),
      onChange: recheckShown,
      error: key ? t(key) : undefined,
    };
  }

  const shownErrors = Object.keys(checks).flatMap((name) => {
    const key = errors[name];
    return key ? [{ name, message: t(key) }] : [];
  });

  return {
    formRef,
    value,
    validateAll,
    recheckShown,
    /** For a text or password input; Mantine ties the message to it. Spread it onto the input. */
    inputProps: fieldProps,
    /** For a checkbox, marked aria-invalid too (Mantine does that for text inputs only). */
    checkboxProps: (name: string) => {
      const props = fieldProps(name);
      return { ...props, 'aria-invalid': props.error ? true : undefined };
    },
    /** The error summary's entries (issue 25), while it is shown. */
    summary: {
      errors: isSummaryShown ? shownErrors : [],
      ref: summaryRef,
      /** Rendered by the server with the messages: the browser focuses it as the page opens. */
      isFromServer: initialErrors.length > 0,
    },
  };
}

export type PortalFormState = ReturnType<typeof usePortalForm>;

/**
 * A field is often left because the tenant presses on the next control (the terms checkbox, say): a
 * message shown at once would push that control away from under the finger, and the tap would land
 * on nothing. So the check waits until the press is over (a touch's mouse events and click come in
 * one go after it: the next task is after them).
 */
function useAfterPress() {
  const isPressing = useRef(false);
  useEffect(() => {
    const press = () => {
      isPressing.current = true;
    };
    const release = () => {
      isPressing.current = false;
    };
    document.addEventListener('pointerdown', press, true);
    document.addEventListener('pointerup', release, true);
    document.addEventListener('pointercancel', release, true);
    return () => {
      document.removeEventListener('pointerdown', press, true);
      document.removeEventListener('pointerup', release, true);
      document.removeEventListener('pointercancel', release, true);
    };
  }, []);

  return function afterPress(action: () => void) {
    if (!isPressing.current) {
      setTimeout(action, 0);
      return;
    }
    const done = () => {
      document.removeEventListener('pointerup', done, true);
      document.removeEventListener('pointercancel', done, true);
      setTimeout(action, 0);
    };
    document.addEventListener('pointerup', done, true);
    document.addEventListener('pointercancel', done, true);
  };
}
