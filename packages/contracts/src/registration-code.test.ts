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
    // What Word and PDF letters make of the hyphens, or copy along with them
    ['with en dashes (Word’s autocorrect)', PRINTED.replaceAll('-', '\u2013')],
    ['with em dashes', PRINTED.replaceAll('-', '\u2014')],
    ['with spaces around en dashes', PRINTED.replaceAll('-', ' \u2013 ')],
    ['with non-breaking hyphens', PRINTED.replaceAll('-', '\u2011')],
    ['with Unicode hyphens', PRINTED.replaceAll('-', '\u2010')],
    ['with minus signs', PRINTED.replaceAll('-', '\u2212')],
    ['with soft hyphens after the hyphens (copied from a PDF)', PRINTED.replaceAll('-', '-\u00ad')],
    ['with dots', PRINTED.replaceAll('-', '.')],
    ['with middle dots', PRINTED.replaceAll('-', '\u00b7')],
    ['with dots and spaces, in capitals', PRINTED.replaceAll('-', '. ').toUpperCase()],
    ['with a mix of separators', '1a2b3c4d\u20135e6f.4a7b 8c9d\u00b70e1f2a3b4c5d'],
    ['pasted with text and a full stop around dashes', `Code: ${PRINTED.replaceAll('-', '\u2013')}.`],
  ])('is read %s, and shown grouped as printed', (_, typed) => {
    expect(normaliseRegistrationCode(typed)).toBe(PRINTED);
    expect(isRegistrationCode(typed)).toBe(true);
  });

  it.each([
    ['a digit short', PRINTED.slice(0, -1)],
    ['a digit too many, glued to it', `${PRINTED}0`],
    ['a digit too many, glued to it behind en dashes', `0${PRINTED.replaceAll('-', '\u2013')}`],
    ['with en dashes but a digit short', PRINTED.replaceAll('-', '\u2013').slice(0, -1)],
    ['with separators that are no dash or dot', PRINTED.replaceAll('-', '/')],
    ['a letter that is no hex digit', PRINTED.replace('a', 'g')],
    ['not version 4', PRINTED.replace('-4a7b-', '-1a7b-')],
    ['empty', ''],
  ])('is refused %s', (_, typed) => {
    expect(normaliseRegistrationCode(typed)).toBeUndefined();
    expect(isRegistrationCode(typed)).toBe(false);
  });
});
