import { describe, expect, it } from 'vitest';
import { trustedRedirectTarget, withSubdomain } from './redirect-target';

const HERE = 'https://login.example.ch/password-set?rprq=1';
const TRUSTED = ['https://login.example.ch', 'https://kunde.example.ch'];

describe('trustedRedirectTarget', () => {
  it.each([
    ['the portal itself', 'https://login.example.ch/password-set-success?subdomain=demo'],
    ['the tenant portal host', 'https://kunde.example.ch/login'],
    ['a relative path', '/password-set-success'],
  ])('follows %s', (_what, uri) => {
    expect(trustedRedirectTarget(uri, TRUSTED, HERE)?.href).toBe(new URL(uri, HERE).href);
  });

  it.each([
    ['another host', 'https://evil.example.com/login'],
    ['a look-alike host', 'https://kunde.example.ch.evil.com/'],
    ['another port', 'https://kunde.example.ch:8443/login'],
    ['another scheme', 'http://kunde.example.ch/login'],
    ['a protocol-relative URL', '//evil.example.com/login'],
    ['a backslash trick', '/\\evil.example.com/login'],
    ['credentials before a foreign host', 'https://kunde.example.ch@evil.example.com/'],
    ['credentials on a trusted host', 'https://user:pw@kunde.example.ch/'],
    ['javascript:', 'javascript:alert(document.cookie)'],
    ['javascript: with blanks', ' \tjavascript:alert(1)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['something unparsable', 'http://'],
  ])('refuses %s', (_what, uri) => {
    expect(trustedRedirectTarget(uri, TRUSTED, HERE)).toBeNull();
  });

  it('ignores trusted origins that are not URLs', () => {
    expect(trustedRedirectTarget('https://evil.example.com/', ['not a url', 'null'], HERE)).toBeNull();
  });
});

describe('withSubdomain', () => {
  it('adds the subdomain when known and missing', () => {
    expect(withSubdomain(new URL('https://kunde.example.ch/login?a=1'), 'demo').href).toBe(
      'https://kunde.example.ch/login?a=1&subdomain=demo',
    );
  });

  it('leaves a subdomain already there, and adds none when unknown', () => {
    expect(withSubdomain(new URL('https://kunde.example.ch/?subdomain=x'), 'demo').href).toBe(
      'https://kunde.example.ch/?subdomain=x',
    );
    expect(withSubdomain(new URL('https://kunde.example.ch/'), undefined).href).toBe(
      'https://kunde.example.ch/',
    );
  });
});
