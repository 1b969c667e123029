import { fillPlaceholders, type Language, type PlaceholderValues } from '@concierge/contracts';
import type { Messages } from './resources';

/** Every text's key, as dotted path into the dictionary: 'login.title', 'register.error.default' … */
export type MessageKey = KeysOf<Messages>;

type KeysOf<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : KeysOf<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** A top-level part of the dictionary; a page gets only the parts it uses (and `common`). */
export type MessageNamespace = Exclude<keyof Messages, 'common'>;

/**
 * A page's texts in its one language. The language never changes on a page: the language links
 * load the page anew. The browser adds the parts of a page it moves to (app/route-messages.ts).
 */
export interface Translator {
  readonly language: Language;
  /** The text of a key, its `{{name}}` placeholders filled; the key itself if the page lacks it. */
  t(key: MessageKey, values?: PlaceholderValues): string;
  has(namespace: MessageNamespace): boolean;
  add(parts: Partial<Messages>): void;
}

/**
 * The portal's translations: a key's text from the page's dictionary, with the placeholders the
 * e-mails use too (@concierge/contracts fillPlaceholders). No plural, context or formatting: the
 * texts use none, and locales.test.ts keeps every key and placeholder in all four languages. i18next
 * did the same for 17 KiB of the sign-in page's scripts (docs/decisions.md, "/login on a tenant's
 * phone").
 */
export function createTranslator(language: Language, messages: Partial<Messages>): Translator {
  const dictionary: Partial<Messages> = { ...messages };
  return {
    language,
    t(key, values) {
      const text = lookUp(dictionary, key);
      if (text === undefined) return key;
      return values ? fillPlaceholders(text, values) : text;
    },
    has: (namespace) => Object.hasOwn(dictionary, namespace),
    add: (parts) => Object.assign(dictionary, parts),
  };
}

function lookUp(dictionary: object, key: string): string | undefined {
  let node: unknown = dictionary;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}
