import type { ConsoleFieldError } from '@concierge/contracts';
import type { Translator } from './translator';

// The server sends codes; the console words them. A code the dictionary lacks (a server newer than
// this bundle) gets the general text rather than the code itself.

/** A refused post's message, for the flash and a form's `form` error. */
export function errorText({ t, has }: Translator, code: string): string {
  const key = `error.${code}`;
  return has(key) ? t(key) : t('error.default');
}

/** A field's message: its rule's, else the admin API's, else "not valid"; with the line it is on. */
export function fieldErrorText(translator: Translator, error: ConsoleFieldError): string {
  const { t, has } = translator;
  const fieldKey = `field.${error.code}`;
  const apiKey = `error.${error.code}`;
  const message = has(fieldKey) ? t(fieldKey) : has(apiKey) ? t(apiKey) : t('field.invalid');
  return error.line === undefined ? message : t('field.onLine', { line: error.line, message });
}
