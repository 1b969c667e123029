import type { Language } from '@concierge/contracts';
import de from './locales/de.json' with { type: 'json' };
import en from './locales/en.json' with { type: 'json' };
import fr from './locales/fr.json' with { type: 'json' };
import it from './locales/it.json' with { type: 'json' };

/** The German file defines the keys; the others must have the same ones, or this does not compile. */
export type LetterTexts = typeof de;

export const LETTER_TEXTS: Record<Language, LetterTexts> = { de, en, fr, it };
