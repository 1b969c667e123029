import { describe, expect, it } from 'vitest';
import { pageRedirect } from './page-redirects';

describe('pageRedirect', () => {
  it('moves a registration code from any route to /register', () => {
    expect(pageRedirect('/login', '?registrationcode=abc&subdomain=demo')).toBe(
      '/register?registrationcode=abc&subdomain=demo',
    );
    expect(pageRedirect('/password-reset-init', '?code=abc&requestId=r')).toBe(
      '/register?requestId=r&registrationcode=abc',
    );
  });

  it('leaves /register itself and the value "empty" alone', () => {
    expect(pageRedirect('/register', '?registrationcode=abc')).toBeNull();
    expect(pageRedirect('/login', '?code=empty')).toBeNull();
  });

  it('sends email_not_verified to the resend page with the entered e-mail', () => {
    expect(
      pageRedirect(
        '/login',
        '?requestId=r&error=email_not_verified&error_description=x&username=anna%40example.ch',
      ),
    ).toBe('/resend-account-activation-email?requestId=r&email=anna%40example.ch&reason=email_not_verified');
  });

  it("takes the provider's names of the account out of the address, also on the way to another page", () => {
    expect(
      pageRedirect(
        '/login',
        '?requestId=r&error=invalid_username_password&username=a%40b.ch&sub=s-1&q=s***1',
      ),
    ).toBe('/login?requestId=r&error=invalid_username_password&username=a%40b.ch');
    expect(pageRedirect('/resend-account-activation-email', '?track_id=t&sub=s-1')).toBe(
      '/resend-account-activation-email',
    );
    expect(pageRedirect('/login', '?error=email_not_verified&username=a%40b.ch&sub=s-1')).toBe(
      '/resend-account-activation-email?email=a%40b.ch&reason=email_not_verified',
    );
    expect(pageRedirect('/verification-complete', '?sub=s-1&email=a%40b.ch&verificationid=v')).toBeNull();
  });

  it('sends nowhere but to the portal’s own routes, whatever the path (issue 26)', () => {
    // A browser reads `//evil.example/x` as another site: an unknown path stays the not-found page.
    expect(pageRedirect('//evil.example/login', '?subdomain=demo&sub=s-1')).toBeNull();
    expect(pageRedirect('/\\evil.example/login', '?q=s***1')).toBeNull();
    expect(pageRedirect('//evil.example/login', '?error=email_not_verified&username=a%40b.ch')).toBeNull();
    expect(pageRedirect('/login/', '?requestId=r&sub=s-1')).toBe('/login?requestId=r');
  });

  it('leaves every other URL alone', () => {
    expect(pageRedirect('/login', '?requestId=r&error=invalid_username_password')).toBeNull();
    expect(pageRedirect('/login', '')).toBeNull();
  });
});
