import { LANGUAGES, type Language } from '@concierge/contracts';
import type termsDe from '../components/TermsOfUse/locales/de.json';
import type passwordResetInitDe from '../pages/PasswordResetInit/locales/de.json';
import type passwordSetDe from '../pages/PasswordSet/locales/de.json';
import type passwordSetSuccessDe from '../pages/PasswordSetSuccess/locales/de.json';
import type registerDe from '../pages/Register/locales/de.json';
import type resendDe from '../pages/ResendActivation/locales/de.json';
import type verificationDe from '../pages/VerificationComplete/locales/de.json';
import type commonDe from './locales/de.json';

/**
 * One language's dictionary: the shared texts (i18n/locales) plus each page's and component's own
 * `locales/<language>.json`, mounted under the key the spec's messages use (register.error.*,
 * password_reset.init.error.* …). Typed after German: its keys are the typed translation keys, and a
 * language file that lacks one of them fails locales.test.ts.
 */
export type Messages = typeof commonDe & {
  register: typeof registerDe;
  verification: typeof verificationDe;
  resend_account_activation_email: typeof resendDe;
  password_reset: {
    init: typeof passwordResetInitDe;
    reset: typeof passwordSetDe;
    success: typeof passwordSetSuccessDe;
  };
  terms: typeof termsDe;
};

/**
 * Where each folder's texts go in the dictionary (the folder below src/, its key path; none: the
 * top level). The files themselves are found by folder: a folder with locales/ that is missing here
 * stops the portal at once.
 */
const MOUNTS: Record<string, readonly string[]> = {
  i18n: [],
  'pages/Register': ['register'],
  'pages/VerificationComplete': ['verification'],
  'pages/ResendActivation': ['resend_account_activation_email'],
  'pages/PasswordResetInit': ['password_reset', 'init'],
  'pages/PasswordSet': ['password_reset', 'reset'],
  'pages/PasswordSetSuccess': ['password_reset', 'success'],
  'components/TermsOfUse': ['terms'],
};

const files = import.meta.glob<Record<string, unknown>>(
  ['./locales/*.json', '../pages/*/locales/*.json', '../components/*/locales/*.json'],
  { eager: true, import: 'default' },
);

/** './locales/de.json' → i18n, de; '../pages/Register/locales/de.json' → pages/Register, de. */
function folderAndLanguage(path: string): { folder: string; language: string } {
  const match = /^(?:\.\/|\.\.\/(.+)\/)locales\/([a-z]+)\.json$/.exec(path);
  if (!match) throw new Error(`Unexpected locale file ${path}`);
  return { folder: match[1] ?? 'i18n', language: match[2]! };
}

const textsByFolder = new Map<string, Map<string, Record<string, unknown>>>();
for (const [path, texts] of Object.entries(files)) {
  const { folder, language } = folderAndLanguage(path);
  if (!Object.hasOwn(MOUNTS, folder)) {
    throw new Error(
      `${folder}/locales has no place in the dictionary: add it to MOUNTS in i18n/resources.ts`,
    );
  }
  const byLanguage = textsByFolder.get(folder) ?? new Map<string, Record<string, unknown>>();
  byLanguage.set(language, texts);
  textsByFolder.set(folder, byLanguage);
}

function dictionary(language: Language): Messages {
  const root: Record<string, unknown> = {};
  for (const [folder, path] of Object.entries(MOUNTS)) {
    const texts = textsByFolder.get(folder)?.get(language);
    if (!texts) throw new Error(`${folder}/locales/${language}.json is missing`);
    let parent = root;
    for (const key of path) {
      parent[key] ??= {};
      parent = parent[key] as Record<string, unknown>;
    }
    Object.assign(parent, texts);
  }
  return root as Messages;
}

/** All four dictionaries. Only the server imports this; a browser gets its one language inlined. */
export const locales = Object.fromEntries(
  LANGUAGES.map((language) => [language, dictionary(language)]),
) as Record<Language, Messages>;
