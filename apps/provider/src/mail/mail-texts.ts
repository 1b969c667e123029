import type { Language } from '@concierge/contracts';
import de from './locales/de.json';
import en from './locales/en.json';
import fr from './locales/fr.json';
import it from './locales/it.json';

/** The German file defines the keys; the others must have the same ones, or this does not compile. */
export type MailTexts = typeof de;

export const MAIL_TEXTS: Record<Language, MailTexts> = { de, en, fr, it };
