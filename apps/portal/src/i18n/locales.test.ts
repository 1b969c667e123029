import {
  FIELD_CODES,
  LANGUAGES,
  LOGIN_ERROR_CODES,
  PASSWORD_RESET_INIT_ERROR_CODES,
  PASSWORD_RESET_SET_ERROR_CODES,
  REGISTRATION_ERROR_CODES,
  VERIFICATION_ERROR_CODES,
} from '@concierge/contracts';
import { describe, expect, it } from 'vitest';
import { locales } from './resources';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Record<string, string> {
  return Object.fromEntries(
    Object.entries(tree).flatMap(([key, value]) =>
      typeof value === 'string'
        ? [[prefix + key, value]]
        : Object.entries(flatten(value, `${prefix}${key}.`)),
    ),
  );
}

const flat = Object.fromEntries(LANGUAGES.map((language) => [language, flatten(locales[language])]));
const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();

// The checks run over the merged dictionaries: the shared file plus every page's and component's.
describe('locales', () => {
  it.each(LANGUAGES)(
    '%s has exactly the keys of German, none empty, with the same placeholders',
    (language) => {
      const german = flat.de!;
      const other = flat[language]!;
      expect(Object.keys(other).sort()).toEqual(Object.keys(german).sort());
      for (const [key, text] of Object.entries(other)) {
        expect(text.trim(), key).not.toBe('');
        expect(placeholders(text), key).toEqual(placeholders(german[key]!));
      }
    },
  );

  it('writes Swiss German: no sharp s', () => {
    for (const [key, text] of Object.entries(flat.de!)) expect(text, key).not.toContain('ß');
  });

  it('has a message for every login error code of the spec and the default', () => {
    for (const code of [...LOGIN_ERROR_CODES, 'default'])
      expect(flat.en![`login.error.${code}`], code).toBeTruthy();
  });

  it('mounts every page and component file under its key', () => {
    for (const key of [
      'register.title',
      'verification.title',
      'resend_account_activation_email.title',
      'password_reset.init.title',
      'password_reset.reset.title',
      'password_reset.success.title',
      'terms.title',
      'terms.sections.finalProvisions.body',
    ])
      for (const language of LANGUAGES) expect(flat[language]![key], `${language} ${key}`).toBeTruthy();
  });

  it.each([
    ['register.error', [...REGISTRATION_ERROR_CODES, ...FIELD_CODES, 'default']],
    ['verification.error', [...VERIFICATION_ERROR_CODES, 'default']],
    ['password_reset.init.error', [...PASSWORD_RESET_INIT_ERROR_CODES, 'default']],
    ['password_reset.reset.error', [...PASSWORD_RESET_SET_ERROR_CODES, 'default']],
  ])('has a message for every %s code of the contracts and the default', (prefix, codes) => {
    for (const language of LANGUAGES)
      for (const code of codes)
        expect(flat[language]![`${prefix}.${code}`], `${language} ${code}`).toBeTruthy();
  });

  it('has the single resend error message', () => {
    for (const language of LANGUAGES)
      expect(flat[language]!['resend_account_activation_email.error'], language).toBeTruthy();
  });
});
