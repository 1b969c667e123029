import type { Language } from '@concierge/contracts';
import termsDe from '../components/TermsOfUse/locales/de.json';
import termsEn from '../components/TermsOfUse/locales/en.json';
import termsFr from '../components/TermsOfUse/locales/fr.json';
import termsIt from '../components/TermsOfUse/locales/it.json';
import passwordResetInitDe from '../pages/PasswordResetInit/locales/de.json';
import passwordResetInitEn from '../pages/PasswordResetInit/locales/en.json';
import passwordResetInitFr from '../pages/PasswordResetInit/locales/fr.json';
import passwordResetInitIt from '../pages/PasswordResetInit/locales/it.json';
import passwordSetDe from '../pages/PasswordSet/locales/de.json';
import passwordSetEn from '../pages/PasswordSet/locales/en.json';
import passwordSetFr from '../pages/PasswordSet/locales/fr.json';
import passwordSetIt from '../pages/PasswordSet/locales/it.json';
import passwordSetSuccessDe from '../pages/PasswordSetSuccess/locales/de.json';
import passwordSetSuccessEn from '../pages/PasswordSetSuccess/locales/en.json';
import passwordSetSuccessFr from '../pages/PasswordSetSuccess/locales/fr.json';
import passwordSetSuccessIt from '../pages/PasswordSetSuccess/locales/it.json';
import registerDe from '../pages/Register/locales/de.json';
import registerEn from '../pages/Register/locales/en.json';
import registerFr from '../pages/Register/locales/fr.json';
import registerIt from '../pages/Register/locales/it.json';
import resendDe from '../pages/ResendActivation/locales/de.json';
import resendEn from '../pages/ResendActivation/locales/en.json';
import resendFr from '../pages/ResendActivation/locales/fr.json';
import resendIt from '../pages/ResendActivation/locales/it.json';
import verificationDe from '../pages/VerificationComplete/locales/de.json';
import verificationEn from '../pages/VerificationComplete/locales/en.json';
import verificationFr from '../pages/VerificationComplete/locales/fr.json';
import verificationIt from '../pages/VerificationComplete/locales/it.json';
import commonDe from './locales/de.json';
import commonEn from './locales/en.json';
import commonFr from './locales/fr.json';
import commonIt from './locales/it.json';

/**
 * One language's dictionary: the shared texts plus each page's and component's own file, mounted
 * under the key the spec's messages use (register.error.*, password_reset.init.error.* …). Typed
 * after German, so a language file that lacks a key of the German one does not compile.
 */
function dictionary(parts: {
  common: typeof commonDe;
  register: typeof registerDe;
  verification: typeof verificationDe;
  resend: typeof resendDe;
  passwordResetInit: typeof passwordResetInitDe;
  passwordSet: typeof passwordSetDe;
  passwordSetSuccess: typeof passwordSetSuccessDe;
  terms: typeof termsDe;
}) {
  return {
    ...parts.common,
    register: parts.register,
    verification: parts.verification,
    resend_account_activation_email: parts.resend,
    password_reset: {
      init: parts.passwordResetInit,
      reset: parts.passwordSet,
      success: parts.passwordSetSuccess,
    },
    terms: parts.terms,
  };
}

const de = dictionary({
  common: commonDe,
  register: registerDe,
  verification: verificationDe,
  resend: resendDe,
  passwordResetInit: passwordResetInitDe,
  passwordSet: passwordSetDe,
  passwordSetSuccess: passwordSetSuccessDe,
  terms: termsDe,
});

/** The merged German dictionary: its keys are the typed translation keys. */
export type Messages = typeof de;

/** All four dictionaries. Only the server imports this; a browser gets its one language inlined. */
export const locales: Record<Language, Messages> = {
  de,
  en: dictionary({
    common: commonEn,
    register: registerEn,
    verification: verificationEn,
    resend: resendEn,
    passwordResetInit: passwordResetInitEn,
    passwordSet: passwordSetEn,
    passwordSetSuccess: passwordSetSuccessEn,
    terms: termsEn,
  }),
  fr: dictionary({
    common: commonFr,
    register: registerFr,
    verification: verificationFr,
    resend: resendFr,
    passwordResetInit: passwordResetInitFr,
    passwordSet: passwordSetFr,
    passwordSetSuccess: passwordSetSuccessFr,
    terms: termsFr,
  }),
  it: dictionary({
    common: commonIt,
    register: registerIt,
    verification: verificationIt,
    resend: resendIt,
    passwordResetInit: passwordResetInitIt,
    passwordSet: passwordSetIt,
    passwordSetSuccess: passwordSetSuccessIt,
    terms: termsIt,
  }),
};
