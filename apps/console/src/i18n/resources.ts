import type { Language } from '@concierge/contracts';
import de from './locales/de.json';
import en from './locales/en.json';
import fr from './locales/fr.json';
import it from './locales/it.json';

/** One language's texts, typed after German: its keys are the translator's keys. */
export type Messages = typeof de;

/**
 * All four dictionaries, for the server renderer and the tests. The browser loads only its page's
 * language (load-messages.ts). The `satisfies` makes a language that lacks a key fail the typecheck.
 */
export const locales = { de, fr, it, en } satisfies Record<Language, Messages>;
