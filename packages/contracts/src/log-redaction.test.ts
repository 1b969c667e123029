import { describe, expect, it } from 'vitest';
import { redactUrl } from './log-redaction';

describe('redactUrl', () => {
  it.each([
    [
      '/password-set?exchangeId=e1&rprq=r1&requestId=q1&subdomain=demo',
      '/password-set?exchangeId=[redacted]&rprq=[redacted]&requestId=q1&subdomain=demo',
    ],
    [
      '/verification-complete?email=a%40b.ch&verificationid=v1&subdomain=demo',
      '/verification-complete?email=[redacted]&verificationid=[redacted]&subdomain=demo',
    ],
    [
      '/register?registrationcode=c1&invite_id=i1',
      '/register?registrationcode=[redacted]&invite_id=[redacted]',
    ],
    [
      '/login?requestId=q1&username=a%40b.ch&error=invalid_username_password',
      '/login?requestId=q1&username=[redacted]&error=invalid_username_password',
    ],
    [
      '/session/end?id_token_hint=t1&post_logout_redirect_uri=x',
      '/session/end?id_token_hint=[redacted]&post_logout_redirect_uri=x',
    ],
    ['/authz?login_hint=h&state=s', '/authz?login_hint=[redacted]&state=s'],
  ])('replaces the secret values of %s', (url, redacted) => {
    expect(redactUrl(url)).toBe(redacted);
  });

  it('matches names in any case, encoded or not', () => {
    expect(redactUrl('/x?ExchangeID=e1&%65mail=a')).toBe('/x?ExchangeID=[redacted]&%65mail=[redacted]');
  });

  it('replaces any value that holds an e-mail address, whatever its name', () => {
    expect(redactUrl('/x?contact=anna%40example.ch&n=1')).toBe('/x?contact=[redacted]&n=1');
  });

  it('leaves URLs without secrets as they are', () => {
    for (const url of ['/login', '/login?subdomain=demo&requestId=q1', '/x?flag&empty=', '/x?email=']) {
      expect(redactUrl(url)).toBe(url);
    }
  });
});
