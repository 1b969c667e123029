import { describe, expect, it } from 'vitest';
import { decodeRequestTarget, findUnsafeRequestPart, findUnsafeText, isUnsafeText } from './safe-text';

describe('isUnsafeText', () => {
  it.each([
    ['NUL', 'a\u0000b'],
    ['ESC', '\u001b[31m'],
    ['tab', 'a\tb'],
    ['line feed', 'a\nb'],
    ['DEL', 'a\u007f'],
    ['C1 NEL', 'a\u0085'],
    ['a lone high surrogate', 'a\ud800'],
    ['a lone high surrogate before text', '\ud800a'],
    ['a lone low surrogate', 'a\udc00'],
    ['swapped surrogates', '\ude00\ud83d'],
  ])('refuses %s', (_case, text) => {
    expect(isUnsafeText(text)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['ASCII', 'anna@example.ch'],
    ['umlauts', 'jürg@exämple.ch'],
    ['emoji', '😀 ok'],
    ['NBSP', 'a\u00a0b'],
  ])('accepts %s', (_case, text) => {
    expect(isUnsafeText(text)).toBe(false);
  });
});

describe('findUnsafeText', () => {
  it('names the first unsafe path, never the value', () => {
    expect(findUnsafeText({ a: 'ok', b: ['ok', { c: 'x\u0000' }] }, 'body')).toBe('body.b[1].c');
    expect(findUnsafeText({ 'bad\u0000key': 1 }, 'body')).toBe('body (a field name)');
    expect(findUnsafeText('\ud800', 'query.email')).toBe('query.email');
  });

  it('passes safe values and non-strings', () => {
    expect(findUnsafeText({ a: 1, b: true, c: null, d: [1, 'x'], e: { f: 'jürg' } }, 'body')).toBeUndefined();
    expect(findUnsafeText(undefined)).toBeUndefined();
    expect(findUnsafeText(42)).toBeUndefined();
  });

  it('refuses nesting beyond the limit without walking all of it', () => {
    const deep = JSON.parse(`${'['.repeat(5000)}${']'.repeat(5000)}`);
    expect(findUnsafeText(deep, 'body')).toMatch(/^body(\[0\])+$/);
    expect(findUnsafeText({ a: { b: 'ok' } }, 'body', 1)).toBe('body.a');
    expect(findUnsafeText({ a: { b: 'ok' } }, 'body', 2)).toBeUndefined();
  });

  it('walks a parsed __proto__ key as an own field', () => {
    expect(findUnsafeText(JSON.parse('{"__proto__":{"x":"\\u0000"}}'), 'body')).toBe('body.__proto__.x');
  });
});

describe('decodeRequestTarget and findUnsafeRequestPart', () => {
  it('decodes path and query', () => {
    expect(decodeRequestTarget('/a%20b?x=1+2&y=%C3%BC')).toEqual({ path: '/a b', query: ['x=1 2', 'y=ü'] });
  });

  it.each([
    ['/a%E0%A4%A', 'path (malformed percent-encoding)'],
    ['/a%ED%A0%80', 'path (malformed percent-encoding)'],
    ['/a?x=%E0%A4%A', 'query (malformed percent-encoding)'],
    ['/a?x=%C0%80', 'query (malformed percent-encoding)'],
    ['/a%00', 'path'],
    ['/a?x=%00', 'query'],
  ])('finds %s', (url, where) => {
    expect(findUnsafeRequestPart({ url })).toBe(where);
  });

  it('names parsed parts', () => {
    expect(findUnsafeRequestPart({ url: '/a', params: { id: '\u0000' } })).toBe('params.id');
    expect(findUnsafeRequestPart({ url: '/a', query: { email: ['ok', '\u001b'] } })).toBe('query.email[1]');
    expect(findUnsafeRequestPart({ url: '/a', body: { email: 'a\ud800' } })).toBe('body.email');
    expect(findUnsafeRequestPart({ url: '/a?b=c', body: { email: 'jürg@x.ch' } })).toBeUndefined();
  });
});
