import { describe, expect, it } from 'vitest';
import { extractLinks } from './extract-links';

describe('extractLinks', () => {
  it('finds http and https links in text, without the sentence punctuation after them', () => {
    expect(extractLinks('Go to https://a.example/x?y=1. Or (http://b.example/)!', '')).toEqual([
      'https://a.example/x?y=1',
      'http://b.example/',
    ]);
  });

  it('decodes entities in HTML attributes and lists a link found in both parts once', () => {
    const link = 'https://a.example/reset?exchangeid=1&rprq=2';
    expect(extractLinks(link, `<a href="https://a.example/reset?exchangeid=1&amp;rprq=2">x</a>`)).toEqual([
      link,
    ]);
    expect(extractLinks('', `<a href='https://c.example/&#x3f;q'>c</a>`)).toEqual(['https://c.example/?q']);
  });

  it('ignores other schemes', () => {
    expect(extractLinks('mailto:a@b.ch ftp://x.example', '<a href="javascript:alert(1)">x</a>')).toEqual([]);
  });
});
