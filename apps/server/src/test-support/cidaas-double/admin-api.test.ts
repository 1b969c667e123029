import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CidaasDouble } from './cidaas-double';
import { admin, expectRefusal, expectUserNotFound, NOT_FOUND_VARIANTS, startDouble } from './test-helpers';

// provider-protocol.md "Admin API" (register: register.test.ts; reset: reset.test.ts).

let double: CidaasDouble;
let sub: string;
beforeEach(async () => {
  double = await startDouble();
  sub = double.addUser({ email: 'ann@example.com', password: 'pw', given_name: 'Ann' }).sub;
});
afterEach(() => double.close());

describe('user existence (admin)', () => {
  const exists = (email: string) => admin(double, 'POST', '/useractions-srv/userexistence', { email });

  it('answers a known user without sub by default, with sub and userStatus in the other variant', async () => {
    expect((await exists('ann@example.com')).json).toEqual({
      success: true,
      status: 200,
      data: { exist: true },
    });
    double.variants.existenceCarriesSub = true;
    expect((await exists('Ann@Example.com')).json.data).toEqual({ exist: true, sub, userStatus: 'VERIFIED' });
  });

  it.each(NOT_FOUND_VARIANTS)('answers an unknown user per variant %s', async (variant) => {
    double.variants.userNotFound = variant;
    expectUserNotFound(await exists('nobody@example.com'), variant);
  });
});

describe('user by e-mail and by sub', () => {
  it('finds by e-mail, or answers an empty list', async () => {
    const found = await admin(double, 'POST', '/users-srv/user/search', { email: 'ann@example.com' });
    expect(found.json.data).toEqual([
      { sub, email: 'ann@example.com', email_verified: true, userStatus: 'VERIFIED' },
    ]);
    const none = await admin(double, 'POST', '/users-srv/user/search', { email: 'nobody@example.com' });
    expect(none.json).toEqual({ success: true, status: 200, data: [] });
  });

  it('answers the profile of a sub', async () => {
    const answer = await admin(double, 'GET', `/users-srv/internal/userinfo/profile/${sub}`);
    expect(answer.json.data).toEqual({
      sub,
      email: 'ann@example.com',
      email_verified: true,
      userStatus: 'VERIFIED',
      given_name: 'Ann',
    });
  });

  it.each(NOT_FOUND_VARIANTS)('answers an unknown sub per variant %s', async (variant) => {
    double.variants.userNotFound = variant;
    expectUserNotFound(
      await admin(double, 'GET', '/users-srv/internal/userinfo/profile/unknown-sub'),
      variant,
    );
  });
});

describe('status', () => {
  const setStatus = (target: string, status: string) =>
    admin(double, 'PATCH', `/user-srv/users/${target}/status`, { status });

  it('changes the status and answers updated:true', async () => {
    expect((await setStatus(sub, 'DECLINED')).json).toEqual({
      success: true,
      status: 200,
      data: { updated: true },
    });
    expect(double.user('ann@example.com')?.userStatus).toBe('DECLINED');
    expect((await setStatus(sub, 'VERIFIED')).status).toBe(200);
  });

  it('refuses the status the user has already with 400 (10013) and a status it does not know with 10000', async () => {
    expectRefusal(await setStatus(sub, 'VERIFIED'), 400, 10013);
    expectRefusal(await setStatus(sub, 'ACTIVE'), 400, 10000);
  });

  it.each(NOT_FOUND_VARIANTS)('answers an unknown sub per variant %s', async (variant) => {
    double.variants.userNotFound = variant;
    expectUserNotFound(await setStatus('unknown-sub', 'DECLINED'), variant);
  });
});

describe('mark e-mail verified', () => {
  it('sets email_verified, leaving the status alone', async () => {
    const { sub: newSub } = double.addUser({
      email: 'new@example.com',
      password: 'pw',
      email_verified: false,
    });
    const answer = await admin(double, 'PUT', `/users-srv/user/profile/${newSub}`, { email_verified: true });
    expect(answer.json).toEqual({ success: true, status: 200, data: { updated: true } });
    expect(double.user('new@example.com')).toMatchObject({ email_verified: true, userStatus: 'VERIFIED' });
  });

  it('answers an unknown sub with 417 + 10301', async () => {
    expectRefusal(
      await admin(double, 'PUT', '/users-srv/user/profile/unknown-sub', { email_verified: true }),
      417,
      10301,
    );
  });
});
