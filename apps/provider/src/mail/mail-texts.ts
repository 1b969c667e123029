import type { Language } from '@concierge/contracts';
import de from './locales/de.json' with { type: 'json' };
import en from './locales/en.json' with { type: 'json' };
import fr from './locales/fr.json' with { type: 'json' };
import it from './locales/it.json' with { type: 'json' };

/** The German file defines the keys; the others must have the same ones, or this does not compile. */
export type MailTexts = typeof de;

export const MAIL_TEXTS: Record<Language, MailTexts> = { de, en, fr, it };
