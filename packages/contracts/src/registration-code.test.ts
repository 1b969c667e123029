import { describe, expect, it } from 'vitest';
import { isRegistrationCode, normaliseRegistrationCode } from './portal-api-codes';

const PRINTED = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

describe('the registration code from the paper letter', () => {
  it.each([
    ['as printed', PRINTED],
    ['in capitals', PRINTED.toUpperCase()],
    ['without hyphens', PRINTED.replaceAll('-', '')],
    ['with spaces instead of hyphens', PRINTED.replaceAll('-', ' ')],
    ['with spaces around the hyphens', PRINTED.replaceAll('-', ' - ')],
    ['with spaces before and after', `  ${PRINTED}  `],
    ['pasted with text around it', `Ihr Registrierungscode: ${PRINTED.toUpperCase()}.`],
    ['pasted from a line that starts with hex letters', `Code de ${PRINTED} (à garder)`],
  ])('is read %s, and shown grouped as printed', (_, typed) => {
    expect(normaliseRegistrationCode(typed)).toBe(PRINTED);
    expect(isRegistrationCode(typed)).toBe(true);
  });

  it.each([
    ['a digit short', PRINTED.slice(0, -1)],
    ['a digit too many, glued to it', `${PRINTED}0`],
    ['a letter that is no hex digit', PRINTED.replace('a', 'g')],
    ['not version 4', PRINTED.replace('-4a7b-', '-1a7b-')],
    ['empty', ''],
  ])('is refused %s', (_, typed) => {
    expect(normaliseRegistrationCode(typed)).toBeUndefined();
    expect(isRegistrationCode(typed)).toBe(false);
  });
});
