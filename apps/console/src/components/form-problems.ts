import type { ConsoleFormAgain } from '@concierge/contracts';
import { errorText, fieldErrorText } from '../i18n/error-texts';
import { useTranslation } from '../i18n/use-translation';

/** A field's element id: what its label, its error and the error summary's link point at. */
export function fieldId(field: string): string {
  return `field-${field.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

/** What a form refused by the server says: per field, for the whole form, and what was typed. */
export function useFormProblems<Field extends string>(form: ConsoleFormAgain<Field> | null) {
  const translator = useTranslation();
  const formError = form?.errors.form;
  return {
    /** The message at a field (Mantine ties it to the field with aria-describedby). */
    errorOf(field: Field): string | undefined {
      const error = form?.errors[field];
      return error ? fieldErrorText(translator, error) : undefined;
    },
    formError: formError ? errorText(translator, formError.code) : undefined,
    /** What was typed into a field, when the form comes back; else undefined. */
    valueOf(field: Field): string | undefined {
      return form?.values[field];
    },
    isBack: form !== null,
  };
}
