import type { Language } from '@concierge/contracts';
import type { Messages } from './resources';

// In the browser a page needs its one language: each dictionary is a chunk of its own, loaded
// before hydration, instead of all four in the entry.
const dictionaries = import.meta.glob<Messages>('./locales/*.json', { import: 'default' });

export async function loadMessages(language: Language): Promise<Messages> {
  const load = dictionaries[`./locales/${language}.json`];
  if (!load) throw new Error(`No texts for the language ${language}`);
  return load();
}
