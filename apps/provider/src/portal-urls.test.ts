import { describe, expect, it } from 'vitest';
import { clientSchema } from './config';
import { hostedPageLocation, hostedPageUrlOf, sessionExpiredLocation } from './portal-urls';

const client = (extra: Record<string, unknown> = {}) =>
  clientSchema.parse({
    client_id: 'c',
    token_endpoint_auth_method: 'none',
    redirect_uris: ['https://rp.example.com/cb'],
    ...extra,
  });

describe('hosted page URLs', () => {
  it("uses the client's hosted page URL, else the portal's /login", () => {
    expect(
      hostedPageUrlOf(client({ hosted_page_url: 'https://a.example.com/in?x=1' }), 'https://p.example'),
    ).toBe('https://a.example.com/in?x=1');
    expect(hostedPageUrlOf(client({ subdomain: 'acme' }), 'https://p.example')).toBe(
      'https://p.example/login',
    );
    expect(hostedPageUrlOf(undefined, 'https://p.example')).toBe('https://p.example/login');
  });

  it("adds cidaas's parameters after the URL's own query and leaves out undefined values", () => {
    expect(
      hostedPageLocation('https://p.example/login?subdomain=demo', {
        error: 'invalid_username_password',
        error_description: undefined,
        requestId: 'r-1',
      }),
    ).toBe(
      'https://p.example/login?subdomain=demo&groupname=default&lang=&view_type=login&error=invalid_username_password&requestId=r-1',
    );
  });

  it('replaces a parameter the URL already has instead of sending it twice', () => {
    const location = new URL(
      hostedPageLocation('https://p.example/login?requestId=old&lang=de', { requestId: 'new' }),
    );
    expect(location.searchParams.getAll('requestId')).toEqual(['new']);
    expect(location.searchParams.getAll('lang')).toEqual(['']);
  });

  it("sends an expired sign-in to the portal's /login with nothing but the error", () => {
    expect(sessionExpiredLocation('https://p.example', 'r-1', 'anna@example.ch')).toBe(
      'https://p.example/login?error=session_expired&requestId=r-1&username=anna%40example.ch',
    );
    expect(sessionExpiredLocation('https://p.example', 'r-1', '')).toBe(
      'https://p.example/login?error=session_expired&requestId=r-1',
    );
  });
});
