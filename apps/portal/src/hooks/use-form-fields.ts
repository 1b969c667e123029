import { type ChangeEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { REGISTER_VALIDATION_CODES } from '../api/error-keys';

/** spec §5: the validation messages, all under register.error (the password forms use them too). */
export type ValidationKey = `register.error.${(typeof REGISTER_VALIDATION_CODES)[number]}`;

type FieldValues = Record<string, string | boolean>;
export type FieldValidators<V extends FieldValues> = {
  [K in keyof V]?: (values: V) => ValidationKey | undefined;
};
export type FieldErrors<V extends FieldValues> = Partial<Record<keyof V, ValidationKey>>;

/**
 * Plain form state with the spec's validation timing (§5): a field is checked when it loses focus,
 * all fields on submit. A field that shows an error is checked again as the visitor types, so the
 * message disappears as soon as the input is right. The validators are listed in form order: on
 * submit the first invalid field gets the focus.
 */
export function useFormFields<V extends FieldValues>(
  initialValues: V | (() => V),
  validators: FieldValidators<V>,
) {
  const { t } = useTranslation();
  const [values, setValues] = useState<V>(initialValues);
  // The latest values also outside the render, so that two changes in one event both count and a
  // submit right after a change checks what was typed.
  const latest = useRef(values);
  const [errors, setErrors] = useState<FieldErrors<V>>({});
  const elements = useRef(new Map<keyof V, HTMLElement>());
  const fields = Object.keys(validators) as (keyof V)[];
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

  /**
   * A field is left because the tenant presses on the next control (the terms checkbox, say): an
   * error shown at once would push that control away from under the finger, and the tap would land
   * on nothing. So the message waits until the press is over (a touch's mouse events and click
   * come in one go after it: the next task is after them).
   */
  function afterPress(action: () => void) {
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
  }

  function check(field: keyof V, against: V): ValidationKey | undefined {
    return validators[field]?.(against);
  }

  function setValue<K extends keyof V>(field: K, value: V[K]) {
    const next = { ...latest.current, [field]: value };
    latest.current = next;
    setValues(next);
    setErrors((previous) => {
      const shown = fields.filter((name) => previous[name]);
      if (shown.length === 0) return previous;
      const updated = { ...previous };
      for (const name of shown) updated[name] = check(name, next);
      return updated;
    });
  }

  function onBlur(field: keyof V) {
    afterPress(() => setErrors((previous) => ({ ...previous, [field]: check(field, latest.current) })));
  }

  /** Checks every field, shows every message and focuses the first invalid field. */
  function validateAll(): boolean {
    const all: FieldErrors<V> = {};
    for (const field of fields) all[field] = check(field, latest.current);
    setErrors(all);
    const firstInvalid = fields.find((field) => all[field]);
    if (firstInvalid === undefined) return true;
    elements.current.get(firstInvalid)?.focus();
    return false;
  }

  /** A callback ref for the field's input element, for the focus on the first error. */
  function ref(field: keyof V) {
    return (element: HTMLElement | null) => {
      if (element) elements.current.set(field, element);
      else elements.current.delete(field);
    };
  }

  /**
   * Everything a text or password input needs to take part: value, change, blur check, the focus
   * ref and the translated error, tied to the input by Mantine. Spread it onto the input.
   */
  function textField<K extends keyof V>(field: K & (V[K] extends string ? K : never)) {
    return {
      ref: ref(field),
      value: values[field] as string,
      onChange: (event: ChangeEvent<HTMLInputElement>) => setValue(field, event.currentTarget.value as V[K]),
      onBlur: () => onBlur(field),
      error: errors[field] ? t(errors[field]) : undefined,
    };
  }

  return { values, setValue, errors, onBlur, validateAll, ref, textField };
}
