import {
  fillPlaceholders,
  type Language,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  type PlaceholderValues,
} from '@concierge/contracts';
import type { MessagePlaceholders } from './message-placeholders';
import type { Messages } from './resources';

/**
 * Placeholders any text may use without its caller passing them: the limits the contracts' rules
 * enforce, so that a message never states another number than the check it explains (a 40-character
 * password was told "at least 6").
 */
const RULE_PLACEHOLDERS = {
  passwordMinLength: PASSWORD_MIN_LENGTH,
  passwordMaxLength: PASSWORD_MAX_LENGTH,
} as const satisfies PlaceholderValues;

export const RULE_PLACEHOLDER_NAMES: readonly string[] = Object.keys(RULE_PLACEHOLDERS);

const RULE_PLACEHOLDER = new RegExp(`\\{\\{\\s*(${RULE_PLACEHOLDER_NAMES.join('|')})\\s*\\}\\}`, 'g');

/** Every text's key, as dotted path into the dictionary: 'login.title', 'register.error.default' … */
export type MessageKey = KeysOf<Messages>;

type KeysOf<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : KeysOf<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/**
 * What a text needs from its caller (message-placeholders.ts, read from the texts): a value for
 * each of its placeholders, so that a caller who forgets one fails the typecheck instead of the
 * page's render. A union of keys (a page's error messages) asks for what any of them may need.
 */
export type PlaceholderArguments<K extends MessageKey> = [NeededPlaceholders<K>] extends [never]
  ? [values?: PlaceholderValues]
  : [values: Readonly<Record<NeededPlaceholders<K>, string | number>>];

/** A text that needs no value from its caller: what a key chosen at run time must be. */
export type PlainMessageKey = Exclude<MessageKey, keyof MessagePlaceholders>;

/** Every placeholder any of the keys needs (distributed over a union of keys; none: never). */
type NeededPlaceholders<K> = K extends keyof MessagePlaceholders ? MessagePlaceholders[K] : never;

/** A top-level part of the dictionary; a page gets only the parts it uses (and `common`). */
export type MessageNamespace = Exclude<keyof Messages, 'common'>;

/**
 * A page's texts in its one language. The language never changes on a page: the language links
 * load the page anew. The browser adds the parts of a page it moves to (app/route-messages.ts).
 */
export interface Translator {
  readonly language: Language;
  /**
   * The text of a key, its `{{name}}` placeholders filled (the rules' limits always); the key itself
   * if the page lacks it.
   */
  t<K extends MessageKey>(key: K, ...values: PlaceholderArguments<K>): string;
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
    t<K extends MessageKey>(key: K, ...[values]: PlaceholderArguments<K>) {
      const text = lookUp(dictionary, key);
      if (text === undefined) return key;
      const withRules = text.replace(RULE_PLACEHOLDER, (_placeholder, name: keyof typeof RULE_PLACEHOLDERS) =>
        String(RULE_PLACEHOLDERS[name]),
      );
      return fillPlaceholders(withRules, values ?? {});
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
