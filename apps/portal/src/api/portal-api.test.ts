import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorAnswer, stubPortalApi } from '../test/fetch';
import { callPortal, retryAfterOf } from './portal-api';

afterEach(() => {
  vi.unstubAllGlobals();
});

const REGISTRATION = {
  email: 'anna@example.ch',
  password: 'Passw0rd!',
  registrationcode: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  clientid: 'property-portal-demo',
};

function limited(retryAfter: string | null): Response {
  const answer = errorAnswer(429, 'too_many_requests');
  if (retryAfter !== null) answer.headers.set('retry-after', retryAfter);
  return answer;
}

describe('a refused call', () => {
  it('carries the Retry-After of a 429: how long the limit holds, for "in N minutes"', async () => {
    stubPortalApi('register-user', limited('600'));
    expect(await callPortal('register-user', REGISTRATION)).toEqual({
      ok: false,
      code: 'too_many_requests',
      status: 429,
      retryAfterSeconds: 600,
    });
  });

  it('has none when the answer has none (or an unreadable one)', async () => {
    stubPortalApi('password-reset-set-new', limited(null));
    const body = {
      resetRequestId: 'r',
      exchangeId: 'e',
      password: 'p',
      confirmpassword: 'p',
      requestId: 'q',
    };
    const refused = await callPortal('password-reset-set-new', body);
    expect(refused).toEqual({ ok: false, code: 'too_many_requests', status: 429 });
    stubPortalApi('password-reset-set-new', limited('soon'));
    expect(await callPortal('password-reset-set-new', body)).not.toHaveProperty('retryAfterSeconds');
  });
});

describe('an answer', () => {
  it("is read as the call's definition says; one without what it promises counts as failed", async () => {
    stubPortalApi('activate-user-account', Response.json({ success: true, status: 200, data: {} }));
    const body = { email: 'anna@example.ch', verificationid: 'v' };
    expect(await callPortal('activate-user-account', body)).toMatchObject({ ok: false, status: 200 });
    stubPortalApi(
      'activate-user-account',
      Response.json({ success: true, status: 200, data: { isAlreadyActivated: true, extra: 1 } }),
    );
    expect(await callPortal('activate-user-account', body)).toEqual({
      ok: true,
      data: { isAlreadyActivated: true },
    });
  });
});

describe('retryAfterOf', () => {
  it('reads delay-seconds and an HTTP date', () => {
    const now = Date.parse('2030-01-01T10:00:00Z');
    expect(retryAfterOf('120', now)).toBe(120);
    expect(retryAfterOf(' 0 ', now)).toBe(0);
    expect(retryAfterOf('Tue, 01 Jan 2030 10:05:00 GMT', now)).toBe(300);
    expect(retryAfterOf('Tue, 01 Jan 2030 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterOf('-5', now)).toBeUndefined();
    expect(retryAfterOf('', now)).toBeUndefined();
    expect(retryAfterOf(null, now)).toBeUndefined();
  });
});
