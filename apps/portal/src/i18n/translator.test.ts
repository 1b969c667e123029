import { LANGUAGES, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@concierge/contracts';
import { describe, expect, it } from 'vitest';
import { locales } from './resources';
import { createTranslator, type PlainMessageKey } from './translator';

describe('createTranslator', () => {
  const page = { common: locales.fr.common, login: locales.fr.login };

  it('gives a key’s text in the page’s language, its placeholders filled', () => {
    const { t, language } = createTranslator('fr', page);
    expect(language).toBe('fr');
    expect(t('login.title')).toBe('Connexion');
    expect(t('common.errorTitle', { title: 'Connexion' })).toBe('Erreur\u00a0: Connexion');
  });

  it('gives the key itself for a text the page lacks or a part that is not a text', () => {
    const { t } = createTranslator('fr', page);
    expect(t('register.title')).toBe('register.title');
    expect(t('login' as PlainMessageKey)).toBe('login');
    expect(t('login.title.more' as PlainMessageKey)).toBe('login.title.more');
    expect(t('constructor' as PlainMessageKey)).toBe('constructor');
  });

  it('refuses a placeholder without a value rather than show {{title}}, and so does the typecheck', () => {
    const { t } = createTranslator('fr', page);
    // @ts-expect-error the text needs {{title}}: a caller without it does not compile.
    expect(() => t('common.errorTitle', {})).toThrow('{{title}}');
    // A key chosen at run time needs what any of its texts needs.
    const chosen = (isLocked: boolean): 'common.errorTitle' | 'login.title' =>
      isLocked ? 'common.errorTitle' : 'login.title';
    // @ts-expect-error one of the two texts needs {{title}}
    expect(() => t(chosen(true))).toThrow('{{title}}');
  });

  it.each(LANGUAGES)(
    'fills the password rule’s limits into its texts from the rule itself (%s)',
    (language) => {
      const { register, password_reset } = locales[language];
      const { t } = createTranslator(language, {
        common: locales[language].common,
        register,
        password_reset,
      });
      const range = new RegExp(`\\b${PASSWORD_MIN_LENGTH}\\b.*\\b${PASSWORD_MAX_LENGTH}\\b`);
      for (const text of [
        t('register.error.newPasswordInvalid'),
        t('register.passwordRules', { specials: '!' }),
        t('password_reset.reset.passwordRules', { specials: '!' }),
      ]) {
        expect(text).toMatch(range);
        expect(text).not.toContain('{{');
      }
      // the texts name the limits only as placeholders, so that they follow the rule
      expect(register.error.newPasswordInvalid).toContain('{{passwordMaxLength}}');
    },
  );

  it('takes the parts of a page reached later, leaving the page’s own dictionary as it was', () => {
    const german = { common: locales.de.common, login: locales.de.login };
    const translator = createTranslator('de', german);
    expect(translator.has('register')).toBe(false);
    translator.add({ register: locales.de.register });
    expect(translator.has('register')).toBe(true);
    expect(translator.t('register.title')).toBe(locales.de.register.title);
    expect(german).not.toHaveProperty('register');
  });
});
