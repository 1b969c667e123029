import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CidaasDouble } from './cidaas-double';
import { admin, expectRefusal, login, newRequestId, PORTAL, startDouble } from './test-helpers';

// Password reset by e-mailed link: initiate and accept (provider-protocol.md "Admin API").

let double: CidaasDouble;
beforeEach(async () => {
  double = await startDouble();
  double.addUser({ email: 'ann@example.com', password: 'old', userStatus: 'DECLINED' });
});
afterEach(() => double.close());

const initiate = async (email: string, requestId?: string) =>
  admin(double, 'POST', '/users-srv/resetpassword/initiate', {
    requestId: requestId ?? (await newRequestId(double)),
    email,
    processingType: 'LINK',
    resetMedium: 'email',
  });
const accept = (fields: Record<string, string>) =>
  admin(double, 'POST', '/users-srv/resetpassword/accept', fields);

async function linkFor(email: string) {
  await initiate(email);
  const link = double.lastReset(email);
  if (!link) throw new Error('no reset link');
  return { resetRequestId: link.rprq, exchangeId: link.exchangeId };
}

describe('resetpassword/initiate', () => {
  it('answers known and unknown e-mails alike; only a known one gets a link', async () => {
    const requestId = await newRequestId(double);
    const known = await initiate('ann@example.com', requestId);
    const unknown = await initiate('nobody@example.com');
    for (const answer of [known, unknown]) {
      expect(answer.json).toEqual({
        success: true,
        status: 200,
        data: { reset_initiated: true, rprq: expect.any(String) },
      });
    }
    expect(double.lastReset('ann@example.com')).toEqual({
      rprq: known.json.data.rprq,
      exchangeId: expect.any(String),
      requestId,
    });
    expect(double.lastReset('nobody@example.com')).toBeUndefined();
  });

  it('refuses an expired or unknown request id with 400 + 10001, another kind of reset with 10000', async () => {
    const requestId = await newRequestId(double);
    double.expireRequestIds();
    expectRefusal(await initiate('ann@example.com', requestId), 400, 10001, 'UsersException');
    expectRefusal(await initiate('ann@example.com', 'never-issued'), 400, 10001);
    const code = {
      requestId: await newRequestId(double),
      email: 'ann@example.com',
      processingType: 'CODE',
      resetMedium: 'email',
    };
    expectRefusal(await admin(double, 'POST', '/users-srv/resetpassword/initiate', code), 400, 10000);
  });
});

describe('resetpassword/accept', () => {
  it('sets the password once, leaving the status alone', async () => {
    const ids = await linkFor('ann@example.com');
    const answer = await accept({ ...ids, password: 'new', confirmPassword: 'new' });
    expect(answer.json).toEqual({ success: true, status: 200, data: { reseted: true } });
    expect(double.user('ann@example.com')).toMatchObject({ password: 'new', userStatus: 'DECLINED' });
    expectRefusal(await accept({ ...ids, password: 'newer', confirmPassword: 'newer' }), 400, 10002);
  });

  it('lets the user sign in with the new password once the server has unlocked', async () => {
    double.addUser({ email: 'bob@example.com', password: 'old' });
    await accept({ ...(await linkFor('bob@example.com')), password: 'new', confirmPassword: 'new' });
    const target = await login(double, 'bob@example.com', 'new', await newRequestId(double));
    expect(`${target.origin}${target.pathname}`).toBe(PORTAL.redirectUris[0]);
  });

  it('refuses unknown ids with 400 + 10002 and a mismatch with 417 + 10009 (the link stays usable)', async () => {
    const ids = await linkFor('ann@example.com');
    expectRefusal(
      await accept({ ...ids, exchangeId: 'other', password: 'a', confirmPassword: 'a' }),
      400,
      10002,
    );
    expectRefusal(await accept({ ...ids, password: 'a', confirmPassword: 'b' }), 417, 10009);
    expect((await accept({ ...ids, password: 'a', confirmPassword: 'a' })).status).toBe(200);
  });

  it('answers a redirect to the hosted success page in the redirect variant', async () => {
    double.variants.resetAcceptAnswer = 'redirect';
    const answer = await accept({
      ...(await linkFor('ann@example.com')),
      password: 'n',
      confirmPassword: 'n',
    });
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('https://double.cidaas.example/password-success');
    expect(double.user('ann@example.com')?.password).toBe('n');
  });

  it('answers an HTML page in the html variant', async () => {
    double.variants.resetAcceptAnswer = 'html';
    const answer = await accept({
      ...(await linkFor('ann@example.com')),
      password: 'n',
      confirmPassword: 'n',
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.text).toMatch(/^<!DOCTYPE html>/);
    expect(answer.json).toBeUndefined();
  });
});
