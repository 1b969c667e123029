import { type UseFieldReturnType, useField } from '@mantine/form';
import { useEffect, useRef } from 'react';
import type { REGISTER_VALIDATION_CODES } from '../api/error-keys';
import { useTranslation } from '../i18n/use-translation';

/**
 * spec §5: the validation messages. The register.error ones serve every form that checks an e-mail
 * or a new password; the login page has its own two.
 */
export type ValidationKey =
  | `register.error.${(typeof REGISTER_VALIDATION_CODES)[number]}`
  | 'login.validation.emailRequired'
  | 'login.validation.passwordRequired';

type FieldValue = string | boolean;
type FormField<T extends FieldValue> = UseFieldReturnType<T>;
type Fields = Record<string, FormField<string> | FormField<boolean>>;
type ValuesOf<F extends Fields> = { [K in keyof F]: ReturnType<F[K]['getValue']> };

/**
 * One check per field, listed in form order (on submit the first invalid field gets the focus).
 * Each sees all values, so that the confirmation can compare itself with the password.
 */
export type FieldRules<V extends Record<string, FieldValue>> = {
  [K in keyof V]?: (values: V) => ValidationKey | undefined;
};

/** One field of a form: @mantine/form's field state, controlled, its message kept until re-checked. */
export function useFormField<T extends FieldValue>(initialValue: T): FormField<Widened<T>> {
  return useField<Widened<T>>({
    initialValue: initialValue as Widened<T>,
    mode: 'controlled',
    clearErrorOnChange: false,
  });
}

/** `''` is a string field and `false` a boolean one, not fields that can hold nothing else. */
type Widened<T extends FieldValue> = T extends string ? string : boolean;

interface PortalFormOptions<F extends Fields> {
  /** Each field from useFormField, called in place (a hook). */
  fields: F;
  rules: FieldRules<ValuesOf<F>>;
  /** spec §5: a field is checked when it loses focus (every form of the portal). */
  validateOnBlur: boolean;
}

/**
 * Every form of the portal, on @mantine/form's fields: controlled inputs (the server renders the
 * same ones, and typed-before-hydration.ts hands in what was typed before hydration through their
 * onChange), with the spec's timing (§5): a field is checked when it loses focus, all fields on
 * submit. A field that shows a message is checked again as the visitor types, so the message goes
 * as soon as the input is right. Messages are translation keys, translated where the inputs get them.
 *
 * Not @mantine/form's useForm: measured, it puts 4.5 KiB brotli more on /login, for lists, nested
 * paths, watchers and window-event actions that no form here has (docs/decisions.md, "Forms").
 */
export function usePortalForm<F extends Fields>({ fields, rules, validateOnBlur }: PortalFormOptions<F>) {
  type V = ValuesOf<F>;
  type Name = keyof F & string;
  const { t } = useTranslation();
  const names = Object.keys(rules) as Name[];
  const afterPress = useAfterPress(validateOnBlur);
  const elements = useRef(new Map<Name, HTMLElement>());
  const field = <K extends Name>(name: K) => fields[name] as unknown as FormField<V[K]>;
  const errors = Object.fromEntries(names.map((name) => [name, field(name).error || undefined])) as {
    [K in Name]?: ValidationKey;
  };

  /** The values as they are now, also before the next render (a submit right after a change). */
  function getValues(): V {
    return Object.fromEntries(Object.keys(fields).map((name) => [name, field(name).getValue()])) as V;
  }

  function check(name: Name): ValidationKey | undefined {
    const key = rules[name]?.(getValues());
    field(name).setError(key ?? null);
    return key;
  }

  function setFieldValue<K extends Name>(name: K, value: V[K]) {
    field(name).setValue(value);
    // The confirmation's message follows the password too.
    for (const shown of names) if (errors[shown]) check(shown);
  }

  /** The field was left: it is checked once the pointer press that left it is over. */
  function onBlur(name: Name) {
    afterPress(() => check(name));
  }

  /** Checks every field, shows every message and focuses the first invalid field. */
  function validateAll(): boolean {
    const firstInvalid = names.filter((name) => check(name) !== undefined)[0];
    if (firstInvalid === undefined) return true;
    elements.current.get(firstInvalid)?.focus();
    return false;
  }

  /** What every input takes: the focus ref, the blur check and the translated message. */
  function shared(name: Name) {
    const key = errors[name];
    return {
      ref: (element: HTMLElement | null) => {
        if (element) elements.current.set(name, element);
        else elements.current.delete(name);
      },
      onBlur: validateOnBlur ? () => onBlur(name) : undefined,
      error: key ? t(key) : undefined,
    };
  }

  return {
    values: getValues(),
    errors,
    getValues,
    setFieldValue,
    onBlur,
    validateAll,
    /** For a text or password input; Mantine ties the message to it. Spread it onto the input. */
    inputProps: (name: TextField<V>) => ({
      ...shared(name),
      value: field(name).getValue() as string,
      onChange: (event: { currentTarget: HTMLInputElement }) =>
        setFieldValue(name, event.currentTarget.value as V[typeof name]),
    }),
    /** For a checkbox, marked aria-invalid too (Mantine does that for text inputs only). */
    checkboxProps: (name: ToggleField<V>) => {
      const props = shared(name);
      return {
        ...props,
        checked: field(name).getValue() as boolean,
        onChange: (event: { currentTarget: HTMLInputElement }) =>
          setFieldValue(name, event.currentTarget.checked as V[typeof name]),
        'aria-invalid': props.error ? true : undefined,
      };
    },
  };
}

type TextField<V> = { [K in keyof V & string]: V[K] extends string ? K : never }[keyof V & string];
type ToggleField<V> = { [K in keyof V & string]: V[K] extends boolean ? K : never }[keyof V & string];

/**
 * A field is often left because the tenant presses on the next control (the terms checkbox, say): a
 * message shown at once would push that control away from under the finger, and the tap would land
 * on nothing. So the check waits until the press is over (a touch's mouse events and click come in
 * one go after it: the next task is after them).
 */
function useAfterPress(enabled: boolean) {
  const isPressing = useRef(false);
  useEffect(() => {
    if (!enabled) return;
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
  }, [enabled]);

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
