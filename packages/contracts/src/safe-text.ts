/**
 * Input hygiene shared by the server and the provider (issue "Hardening", point 1): no field of
 * their APIs is multi-line or binary, so a C0/C1 control character (NUL above all: PostgreSQL
 * refuses it in text) or a lone UTF-16 surrogate in any string of a request is refused before a
 * route sees it. Pure and without dependencies (no zod): the apps' request hooks call it.
 */

/** Deeper than any body these APIs take; deeper input is refused without being walked further. */
export const SAFE_TEXT_MAX_DEPTH = 32;

/**
 * Where `value` holds unsafe text, as a path from `root` (`body.email`, `query.id[1]`), or
 * undefined when it is all safe. Strings, array items, object keys and values are walked; a
 * structure nested deeper than `maxDepth` is reported at the level where the limit is passed.
 * The path names fields, never values (a value may be a password).
 */
export function findUnsafeText(
  value: unknown,
  root = 'value',
  maxDepth: number = SAFE_TEXT_MAX_DEPTH,
): string | undefined {
  return walk(value, root, 0, maxDepth);
}

/** True when `text` contains a C0 or C1 control character (U+0000–U+001F, U+007F–U+009F) or a lone surrogate. */
export function isUnsafeText(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit < 0x20 || (unit >= 0x7f && unit <= 0x9f)) return true;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return true;
      index += 1; // a well-formed pair
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      return true;
    }
  }
  return false;
}

function walk(value: unknown, path: string, depth: number, maxDepth: number): string | undefined {
  if (typeof value === 'string') return isUnsafeText(value) ? path : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth >= maxDepth) return path;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const found = walk(value[index], `${path}[${index}]`, depth + 1, maxDepth);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  // Own keys only, including a parsed "__proto__" (JSON.parse makes it an own property).
  for (const key of Object.keys(value)) {
    if (isUnsafeText(key)) return `${path} (a field name)`;
    const found = walk((value as Record<string, unknown>)[key], `${path}.${key}`, depth + 1, maxDepth);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The path and query of a request target as they decode, or which part does not decode
 * (malformed percent-encoding, or bytes that are not UTF-8): `{ malformed: 'path' | 'query' }`.
 */
export function decodeRequestTarget(
  url: string,
): { path: string; query: string[] } | { malformed: 'path' | 'query' } {
  const mark = url.indexOf('?');
  const rawPath = mark === -1 ? url : url.slice(0, mark);
  const rawQuery = mark === -1 ? '' : url.slice(mark + 1);
  const path = strictDecode(rawPath);
  if (path === undefined) return { malformed: 'path' };
  const query: string[] = [];
  for (const part of rawQuery.split('&')) {
    if (part === '') continue;
    const decoded = strictDecode(part.replace(/\+/g, ' '));
    if (decoded === undefined) return { malformed: 'query' };
    query.push(decoded);
  }
  return { path, query };
}

function strictDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** The parts of a request the apps' hooks look at (a structural subset of Fastify's request). */
export interface RequestParts {
  /** The raw request target: path and query string, still percent-encoded. */
  url: string;
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

/**
 * The first part of a request that is not safe text, named without its value (`path`,
 * `query.email`, `body.user.name`, `query (malformed percent-encoding)`), or undefined.
 */
export function findUnsafeRequestPart(request: RequestParts): string | undefined {
  const target = decodeRequestTarget(request.url);
  if ('malformed' in target) return `${target.malformed} (malformed percent-encoding)`;
  if (isUnsafeText(target.path)) return 'path';
  return (
    findUnsafeText(request.params, 'params') ??
    findUnsafeText(request.query, 'query') ??
    (target.query.some(isUnsafeText) ? 'query' : undefined) ??
    findUnsafeText(request.body, 'body')
  );
}

/** The refusal's text, the same in both apps. */
export function describeUnsafeRequestPart(where: string): string {
  return `Not accepted: ${where}. Control characters, lone surrogates, malformed percent-encoding and deeply nested values are refused.`;
}
