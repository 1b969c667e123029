import { describe, expect, it } from 'vitest';
import { linkWithQuery } from './use-link-with-query';

describe('linkWithQuery', () => {
  const current = new URLSearchParams(
    'subdomain=demo&requestId=r1&error=x&error_description=y&email=a%40b.ch',
  );

  it('keeps the query but not the error of the page it came with', () => {
    expect(linkWithQuery('/login', current)).toBe('/login?subdomain=demo&requestId=r1&email=a%40b.ch');
  });

  it('sets and leaves out parameters on request', () => {
    expect(
      linkWithQuery('/x', current, { omit: ['email', 'requestId'], set: { email: undefined, a: '1' } }),
    ).toBe('/x?subdomain=demo&a=1');
  });

  it('gives the path alone for an empty query', () => {
    expect(linkWithQuery('/login', new URLSearchParams())).toBe('/login');
  });
});
