import type { Language } from '@concierge/contracts';
import de from './locales/de.json';
import en from './locales/en.json';
import fr from './locales/fr.json';
import it from './locales/it.json';

export type Messages = typeof de;

/** All four dictionaries. Only the server imports this; a browser gets its one language inlined. */
export const locales: Record<Language, Messages> = { de, en, fr, it };
