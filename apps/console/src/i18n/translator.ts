import { fillPlaceholders, type Language, type PlaceholderValues } from '@concierge/contracts';
import type { MessagePlaceholders } from './message-placeholders';
import type { Messages } from './resources';

// The portal's translator, cut down to what the console needs (apps/portal/src/i18n/translator.ts):
// keys typed from the German dictionary, placeholders typed from its texts, no parts loaded later.

/** Every text's key, as a dotted path into the dictionary: 'batch.revokeAll', 'error.default' … */
export type MessageKey = KeysOf<Messages>;

type KeysOf<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : KeysOf<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** A value for each placeholder the text has: a caller who forgets one fails the typecheck. */
export type PlaceholderArguments<K extends MessageKey> = [NeededPlaceholders<K>] extends [never]
  ? []
  : [values: Readonly<Record<NeededPlaceholders<K>, string | number>>];

type NeededPlaceholders<K> = K extends keyof MessagePlaceholders ? MessagePlaceholders[K] : never;

/** A text that needs no value from its caller: what a key chosen at run time must be. */
export type PlainMessageKey = Exclude<MessageKey, keyof MessagePlaceholders>;

export interface Translator {
  readonly language: Language;
  /** The text of a key, its `{{name}}` placeholders filled; the key itself if the dictionary lacks it. */
  t<K extends MessageKey>(key: K, ...values: PlaceholderArguments<K>): string;
  /**
   * Whether the dictionary has a text at this key that needs no values: for keys made from a code
   * the server sent.
   */
  has(key: string): key is PlainMessageKey;
}

export function createTranslator(language: Language, messages: Messages): Translator {
  return {
    language,
    t<K extends MessageKey>(key: K, ...[values]: PlaceholderArguments<K>) {
      const text = lookUp(messages, key);
      return text === undefined ? key : fillPlaceholders(text, (values ?? {}) as PlaceholderValues);
    },
    has: (key): key is PlainMessageKey => lookUp(messages, key)?.includes('{{') === false,
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
