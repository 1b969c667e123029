// One concept, one term (docs/glossary.md): every locale file of every app — the portal's shared,
// page and component texts, the server's mails and the embedded provider's mails — read from disk,
// so that a new locales/ folder is checked without being listed here.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isRegistrationCode } from '@concierge/contracts';
import { describe, expect, it } from 'vitest';

// (A string, not a URL: under jsdom `URL` is jsdom's, which fileURLToPath does not take.)
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const LANGUAGES = ['de', 'fr', 'it', 'en'] as const;
type Language = (typeof LANGUAGES)[number];

type Tree = { [key: string]: string | Tree };
interface Text {
  /** The locales folder, relative to the repository root. */
  folder: string;
  key: string;
  text: string;
}

function flatten(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string'
      ? [[prefix + key, value] as [string, string]]
      : flatten(value, `${prefix}${key}.`),
  );
}

function localeFolders(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    if (!entry.isDirectory() || entry.name === 'node_modules' || entry.name === 'dist') return [];
    const path = join(directory, entry.name);
    return entry.name === 'locales' ? [path] : localeFolders(path);
  });
}

const folders = readdirSync(join(ROOT, 'apps'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((entry) => localeFolders(join(ROOT, 'apps', entry.name, 'src')));

const texts: Record<Language, Text[]> = { de: [], fr: [], it: [], en: [] };
for (const path of folders)
  for (const language of LANGUAGES) {
    const tree = JSON.parse(readFileSync(join(path, `${language}.json`), 'utf8')) as Tree;
    for (const [key, text] of flatten(tree))
      texts[language].push({ folder: relative(ROOT, path).replaceAll('\\', '/'), key, text });
  }

const PORTAL = 'apps/portal/src/i18n/locales';
const REGISTER = 'apps/portal/src/pages/Register/locales';
const VERIFICATION = 'apps/portal/src/pages/VerificationComplete/locales';

function text(language: Language, folder: string, key: string): string {
  const found = texts[language].find((entry) => entry.folder === folder && entry.key === key);
  if (!found) throw new Error(`${language} ${folder} ${key} is missing`);
  return found.text;
}

/** Every text of a language that matches the pattern, as "folder key: match" (empty when none does). */
function offenders(language: Language, pattern: RegExp): string[] {
  const global = new RegExp(
    pattern.source,
    pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`,
  );
  return texts[language].flatMap(({ folder, key, text }) =>
    [...text.matchAll(global)].map(
      (match) =>
        `${folder} ${key}: …${text.slice(Math.max(0, match.index - 20), match.index + match[0].length + 20)}…`,
    ),
  );
}

// French: a no-break space (U+00A0) inside « » and before ; : ! ? — never an ordinary space, never none.
const NBSP = '\u00a0';

const FORBIDDEN: Record<Language, [string, RegExp][]> = {
  de: [
    ['"Benutzername" (the form asks for the E-Mail-Adresse)', /Benutzername/],
    ['"Benutzerkonto" or "Mieterkonto" (the term is Konto)', /Benutzerkont|Mieterkont/],
    ['ß (Swiss German writes ss)', /ß/],
    ['quotation marks other than «…»', /["„“”]/],
    ['"Support" (tenants turn to their Verwaltung)', /\bSupport\b/i],
    ['"Login" / "einloggen" (the term is anmelden / Anmeldung)', /\bLog-?in\b|einlogg/i],
    ['"Benutzer" (the portal\'s users are Nutzerinnen und Nutzer)', /Benutzer(?!name|kont)/],
    ['"Anwendung" / "Applikation" (the term is Portal)', /Anwendung|Applikation/],
    ['"Es geschieht (dann) nichts" (say what does not happen)', /geschieht (dann )?nichts/i],
  ],
  fr: [
    ['« without a no-break space after it', /«(?!\u00a0)/],
    ['» without a no-break space before it', /(?<!\u00a0)»/],
    ['; : ! ? without a no-break space before them', /(?<!\u00a0)[;:!?]/],
    ['"Nouveau ici ?" (a calque)', /Nouve(au|lle|aux)\s+ici\s*\?/i],
    ['"nom d’utilisateur" (the form asks for the adresse e-mail)', /nom d[’']utilisateur/i],
    ['"compte utilisateur" (the term is compte)', /compte utilisateur/i],
    ['"support" (tenants turn to their gérance)', /\bsupport\b/i],
    ['"Vers la connexion" as a button', /Vers la connexion/],
    ['"Votre connexion a expiré" (it is the sign-in request that expired)', /Votre connexion a expiré/],
    ['"application" (the term is portail)', /\bapplication/i],
    ['"les conditions auxquelles" beside the conditions d’utilisation', /conditions auxquelles/i],
  ],
  it: [
    ['"conto" (reads as a bank account; the term is account)', /\bconto\b/i],
    ['the "tu" form (the texts address the reader with "voi")', /\b(tu|ti|tuo|tua|tuoi|tue)\b/i],
    [
      'a "tu" imperative (buttons use the infinitive, sentences the "voi" form)',
      /(^|[.?!:]\s+)(Accedi|Registrati|Richiedi|Accetta|Inserisci|Scegli|Controlla|Torna|Invia|Salva|Leggi|Chiudi|Attiva|Imposta|Vai|Clicca|Apri|Riprova|Verifica|Rivolgiti|Contatta)\b/,
    ],
    ['the courtesy "Lei" form (the texts address the reader with "voi")', /\b(Lei|Suo|Sua|Suoi|Sue)\b/],
    ['"nome utente" (the form asks for the indirizzo e-mail)', /nome utente/i],
    ['"supporto" (tenants turn to their amministrazione)', /\bsupporto\b/i],
    ['"Nuovi qui"', /Nuovi qui/i],
    ['"All’accesso" as a link', /^All[’']accesso$/],
    ['"Conferma della … password" as a label', /^Conferma della/],
    [
      '"amministrazione immobiliare" outside the definition (the term is amministrazione)',
      /amministrazione immobiliare(?! \(di seguito)/,
    ],
    ['"applicazione" (the term is portale)', /applicazion/i],
    ['"suddivise in … gruppi" (the code ed è suddiviso)', /suddivise/],
    ['"non è ancora attivato" (non è ancora stato attivato)', /non è ancora attivat/],
    [
      'a verbless "Nessun … trovato." (a full sentence: non è stato trovato alcun …)',
      /(^|[.?!]\s+)Nessun[^.]*\btrovat[oaie]\./,
    ],
    ['"restano invariati" (say what the terms leave alone)', /restano invariat/],
    ['"rinunciate a utilizzare ulteriormente" (di non utilizzare più)', /rinunciate a utilizzare/],
    ['"Lì potrete" (dove potrete)', /\bLì potrete/],
  ],
  en: [
    ['"username" (the form asks for the email address)', /user ?name/i],
    ['"login" / "log in" (the verb is sign in, the noun sign-in)', /\blog-?in\b|\blog in\b/i],
    ['"e-mail" (the texts write email)', /\be-mail/i],
    ['"terms of service" (the term is terms of use)', /terms of service/i],
    ['"support" (tenants turn to their property manager)', /\bsupport\b/i],
    ['"user account" (the term is account)', /user account/i],
    ['"Someone has asked" (alarming; the other languages inform)', /someone has asked/i],
    ['"identity service" (the term is sign-in service)', /identity service/i],
    ['"upper-case" / "lower-case" (written uppercase, lowercase)', /\b(upper|lower)[- ]case\b/i],
    ['"application" (the term is portal)', /\bapplication/i],
  ],
};

/** The term for "property manager" in each language (docs/glossary.md). */
const PROPERTY_MANAGER: Record<Language, string> = {
  de: 'Verwaltung',
  fr: 'gérance',
  it: 'amministrazione',
  en: 'property manager',
};
const EMAIL_ADDRESS: Record<Language, RegExp> = {
  de: /E-Mail-Adresse/,
  fr: /adresse e-mail/i,
  it: /indirizzo e-mail/i,
  en: /email address/i,
};

/** The keys whose texts are link or button labels, by the last part of the key. */
const LINK_OR_BUTTON = new Set([
  'forgotPassword',
  'register',
  'submit',
  'toLogin',
  'toRegister',
  'termsOpen',
  'accept',
  'close',
  'requestNewLink',
  'requestNewEmail',
  'resend',
  'button',
]);
/** Quoted words that are no link names: the terms of use define their short names in quotes. */
const QUOTED_DEFINITIONS: Record<Language, string[]> = {
  de: ['Betreiberin', 'Verwaltung'],
  fr: ['l’Exploitant', 'la Gérance'],
  it: ['Gestore', 'Amministrazione'],
  en: ['Operator', 'Manager'],
};
const QUOTED: Record<Language, RegExp> = {
  de: /«([^»]*)»/g,
  fr: /«([^»]*)»/g,
  it: /«([^»]*)»/g,
  en: /"([^"]*)"|“([^”]*)”/g,
};

describe('terminology (docs/glossary.md)', () => {
  it('reads the locale files of the portal, the server mails and the provider mails', () => {
    const all = folders.map((path) => relative(ROOT, path).replaceAll('\\', '/'));
    expect(all).toEqual(
      expect.arrayContaining([
        PORTAL,
        REGISTER,
        'apps/portal/src/components/TermsOfUse/locales',
        'apps/server/src/mail/locales',
        'apps/provider/src/mail/locales',
      ]),
    );
  });

  it.each(LANGUAGES)('%s uses none of the forbidden words and variants', (language) => {
    const found = FORBIDDEN[language].flatMap(([what, pattern]) =>
      offenders(language, pattern).map((offender) => `${what} — ${offender}`),
    );
    expect(found).toEqual([]);
  });

  it.each(LANGUAGES)('%s quotes only link and button names that exist, word for word', (language) => {
    const labels = new Set(
      texts[language].filter(({ key }) => LINK_OR_BUTTON.has(key.split('.').at(-1)!)).map(({ text }) => text),
    );
    const unknown = texts[language].flatMap(({ folder, key, text }) =>
      [...text.matchAll(QUOTED[language])]
        .map((match) => (match[1] ?? match[2] ?? '').replaceAll(NBSP, ' ').trim())
        .filter((quoted) => ![...labels].some((label) => label.replaceAll(NBSP, ' ') === quoted))
        .filter((quoted) => !QUOTED_DEFINITIONS[language].includes(quoted))
        .map((quoted) => `${folder} ${key}: «${quoted}»`),
    );
    expect(unknown).toEqual([]);
  });

  it.each(LANGUAGES)('%s ends every error message with a full stop', (language) => {
    const unfinished = texts[language]
      .filter(({ key, text }) => /(^|\.)error(\.|$)/.test(key) && !/[.!?]$/.test(text))
      .map(({ folder, key, text }) => `${folder} ${key}: ${text}`);
    expect(unfinished).toEqual([]);
  });

  it.each(LANGUAGES)('%s names the e-mail address, not a user name, when sign-in fails', (language) => {
    for (const code of [
      'invalid_username_password',
      'user_or_password_invalid',
      'invalid_data_two_attempt',
      'invalid_data_one_attempt',
    ])
      expect(text(language, PORTAL, `login.error.${code}`), code).toMatch(EMAIL_ADDRESS[language]);
  });

  it.each(LANGUAGES)(
    '%s sends tenants to their property manager, not to support or to "roles"',
    (language) => {
      for (const code of ['default', 'access_denied']) {
        const message = text(language, PORTAL, `login.error.${code}`);
        expect(message, code).toContain(PROPERTY_MANAGER[language]);
        expect(message, code).not.toMatch(/\(.*\)/);
      }
    },
  );

  it.each(LANGUAGES)(
    '%s has a "required" message for every required field, distinct from "invalid"',
    (language) => {
      const message = (key: string) => text(language, REGISTER, `error.${key}`);
      expect(message('emailAddressRequired')).not.toBe(message('emailAddressInvalid'));
      expect(message('newPasswordConfirmationRequired')).not.toBe(message('newPasswordConfirmationNoMatch'));
      expect(message('newPasswordRequired')).not.toBe(message('newPasswordInvalid'));
      expect(message('registrationCodeRequired')).not.toBe(message('registrationCodeInvalidFormat'));
      // The registration sets the first password (its field is labelled "Password"): nothing "new".
      expect(message('newPasswordRequired')).not.toMatch(/\b(neues|nouveau|nuova|new)\b/i);
    },
  );

  it.each(LANGUAGES)('%s describes the registration code as what it is: a UUID', (language) => {
    for (const key of ['registrationCodeHint', 'error.registrationCodeInvalidFormat']) {
      const message = text(language, REGISTER, key);
      expect(message, key).not.toMatch(/\b32\b/);
      const example = message.match(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/)?.[0];
      expect(example && isRegistrationCode(example), `${key} shows an example code`).toBe(true);
    }
  });

  it('fr names the conditions d’utilisation at most once a paragraph, and no other conditions beside them', () => {
    const repeated = texts.fr.flatMap(({ folder, key, text }) =>
      text
        .split(/\n\s*\n/)
        .filter((paragraph) => (paragraph.match(/\bconditions\b/g) ?? []).length > 1)
        .map((paragraph) => `${folder} ${key}: ${paragraph.slice(0, 80)}…`),
    );
    expect(repeated).toEqual([]);
  });

  it.each(LANGUAGES)('%s says "already activated" in one way', (language) => {
    expect(text(language, VERIFICATION, 'alreadyActivated')).toBe(
      text(language, VERIFICATION, 'error.already_activated'),
    );
  });
});
