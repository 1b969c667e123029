export const LANGUAGES = ['de', 'en', 'fr', 'it'] as const;
export type Language = (typeof LANGUAGES)[number];

const de = {
  documentTitle: 'Immobilienportal (Demo)',
  heading: 'Immobilienportal',
  intro:
    'Dieses Demo-Portal steht für das Portal Ihrer Verwaltung. Melden Sie sich an, um zu sehen, mit welchem Konto Sie angemeldet sind.',
  signIn: 'Anmelden',
  signInPopup: 'In neuem Fenster anmelden',
  signedInHeading: 'Sie sind angemeldet',
  email: 'E-Mail-Adresse',
  sub: 'Benutzerkennung (sub)',
  noEmail: 'Keine E-Mail-Adresse bekannt',
  signOut: 'Abmelden',
  renew: 'Sitzung erneuern',
  accessValidUntil: 'Zugriff gültig bis',
  redirecting: 'Sie werden zur Anmeldung weitergeleitet …',
  completing: 'Die Anmeldung wird abgeschlossen …',
  callbackError: 'Die Anmeldung ist fehlgeschlagen.',
  actionError: 'Das hat nicht geklappt. Bitte versuchen Sie es später noch einmal.',
  startError: 'Das Portal konnte nicht geladen werden.',
  backHome: 'Zurück zur Startseite',
};

export type Texts = typeof de;

// German is the fallback; Swiss German spelling ("ss", never "ß").
export const TEXTS: Record<Language, Texts> = {
  de,
  en: {
    documentTitle: 'Property portal (demo)',
    heading: 'Property portal',
    intro:
      'This demo portal stands in for your property manager’s portal. Sign in to see which account you are signed in with.',
    signIn: 'Sign in',
    signInPopup: 'Sign in in a new window',
    signedInHeading: 'You are signed in',
    email: 'E-mail address',
    sub: 'User identifier (sub)',
    noEmail: 'No e-mail address known',
    signOut: 'Sign out',
    renew: 'Renew session',
    accessValidUntil: 'Access valid until',
    redirecting: 'Taking you to the sign-in …',
    completing: 'Completing the sign-in …',
    callbackError: 'The sign-in failed.',
    actionError: 'That did not work. Please try again later.',
    startError: 'The portal could not be loaded.',
    backHome: 'Back to the start page',
  },
  fr: {
    documentTitle: 'Portail immobilier (démo)',
    heading: 'Portail immobilier',
    intro:
      'Ce portail de démonstration représente le portail de votre gérance. Connectez-vous pour voir avec quel compte vous êtes connecté.',
    signIn: 'Se connecter',
    signInPopup: 'Se connecter dans une nouvelle fenêtre',
    signedInHeading: 'Vous êtes connecté',
    email: 'Adresse e-mail',
    sub: 'Identifiant d’utilisateur (sub)',
    noEmail: 'Aucune adresse e-mail connue',
    signOut: 'Se déconnecter',
    renew: 'Renouveler la session',
    accessValidUntil: 'Accès valable jusqu’à',
    redirecting: 'Redirection vers la connexion …',
    completing: 'Connexion en cours de finalisation …',
    callbackError: 'La connexion a échoué.',
    actionError: 'Cela n’a pas fonctionné. Veuillez réessayer plus tard.',
    startError: 'Le portail n’a pas pu être chargé.',
    backHome: 'Retour à la page d’accueil',
  },
  it: {
    documentTitle: 'Portale immobiliare (demo)',
    heading: 'Portale immobiliare',
    intro:
      'Questo portale dimostrativo rappresenta il portale della vostra amministrazione. Accedete per vedere con quale account avete effettuato l’accesso.',
    signIn: 'Accedi',
    signInPopup: 'Accedi in una nuova finestra',
    signedInHeading: 'Avete effettuato l’accesso',
    email: 'Indirizzo e-mail',
    sub: 'Identificativo utente (sub)',
    noEmail: 'Nessun indirizzo e-mail noto',
    signOut: 'Esci',
    renew: 'Rinnova la sessione',
    accessValidUntil: 'Accesso valido fino alle',
    redirecting: 'Reindirizzamento all’accesso …',
    completing: 'Completamento dell’accesso …',
    callbackError: 'L’accesso non è riuscito.',
    actionError: 'Non ha funzionato. Riprovate più tardi.',
    startError: 'Non è stato possibile caricare il portale.',
    backHome: 'Torna alla pagina iniziale',
  },
};

function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}

/** spec §1: the browser language reduced to its base language, German as fallback. */
export function pickLanguage(browserLanguage: string | undefined): Language {
  const base = (browserLanguage ?? '').split('-')[0]?.toLowerCase() ?? '';
  return isLanguage(base) ? base : 'de';
}
