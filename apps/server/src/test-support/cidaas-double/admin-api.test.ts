import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CidaasDouble } from './cidaas-double';
import {
  admin,
  expectAccessDenied,
  expectRefusal,
  expectUserNotFound,
  NOT_FOUND_VARIANTS,
  newRequestId,
  startDouble,
} from './test-helpers';

// The admin API's answers on the wire, where the conformance suite (provider-client/
// conformance.test.ts) sees only what the server's client makes of them: the documented shapes,
// the refusals a correct client never meets, and each variant's answer.

let double: CidaasDouble;
let sub: string;
beforeEach(async () => {
  double = await startDouble();
  sub = double.addUser({
    email: 'ann@example.com',
    password: 'pw',
    given_name: 'Ann',
    email_verified: false,
  }).sub;
});
afterEach(() => double.close());

const profile = (of = sub) => admin(double, 'GET', `/users-srv/internal/userinfo/profile/${of}`);
const search = (body: object) => admin(double, 'POST', '/user-srv/graph/users', body);
const byEmail = (email: string, fields?: string) =>
  search({
    fieldsFilter: [{ field: 'email', value: [email] }],
    ...(fields ? { fields } : {}),
    excludeUserCount: true,
  });
const setStatus = (status: string, of = sub) =>
  admin(double, 'PATCH', `/user-srv/users/${of}/status`, { status });
const adminUpdate = (userData: object, of = sub) =>
  admin(double, 'PUT', `/user-srv/users/${of}`, { userData });
const unblock = (body: object) => admin(double, 'POST', '/fraud-detection-srv/unblock', body);

it.each(NOT_FOUND_VARIANTS)(
  'answers an unknown user per variant %s wherever a user is named',
  async (variant) => {
    double.variants.userNotFound = variant;
    expectUserNotFound(
      await admin(double, 'POST', '/useractions-srv/userexistence', { email: 'no@example.com' }),
      variant,
    );
    expectUserNotFound(await profile('unknown-sub'), variant);
    expectUserNotFound(await setStatus('DECLINED', 'unknown-sub'), variant);
    expectUserNotFound(await adminUpdate({ provider: 'self', email_verified: true }, 'unknown-sub'), variant);
  },
);

describe('user by sub', () => {
  it('answers the documented nested profile by default', async () => {
    const { identityId, accountId } = double.user('ann@example.com')!;
    expect((await profile()).json.data).toEqual({
      userAccount: {
        _id: accountId,
        className: expect.any(String),
        sub,
        userStatus: 'VERIFIED',
        createdTime: expect.any(String),
        updatedTime: expect.any(String),
      },
      identity: {
        _id: identityId,
        className: expect.any(String),
        sub,
        provider: 'self',
        email: 'ann@example.com',
        email_verified: false,
        given_name: 'Ann',
        createdTime: expect.any(String),
        updatedTime: expect.any(String),
      },
      customFields: {},
      roles: [],
      groups: [],
    });
  });

  it("answers a flat profile in the variant 'flat'", async () => {
    double.variants.profileShape = 'flat';
    expect((await profile()).json.data).toEqual({
      sub,
      email: 'ann@example.com',
      email_verified: false,
      userStatus: 'VERIFIED',
      given_name: 'Ann',
    });
  });
});

describe('graph search', () => {
  it.each([
    ['data', (users: unknown[]) => users],
    ['data.users', (users: unknown[]) => ({ users })],
    ['data.data', (users: unknown[]) => ({ data: users })],
  ] as const)('answers the index documents in %s, projected on fields', async (placement, shape) => {
    double.variants.searchAnswer = placement;
    const answer = await byEmail('ANN@example.com', 'sub system.email userAccount.email');
    expect(answer.json.data).toEqual(shape([{ sub, system: { email: 'ann@example.com' } }]));
  });

  it('answers every index field without fields, 204 for no match, and refuses a search it cannot read', async () => {
    expect((await byEmail('ann@example.com')).json.data).toEqual([
      { sub, userStatus: 'VERIFIED', system: { email: 'ann@example.com', email_verified: false } },
    ]);
    const none = await byEmail('nobody@example.com');
    expect([none.status, none.text]).toEqual([204, '']);
    expectRefusal(await search({ terms: 'ann' }), 400, 10000);
  });
});

describe('status', () => {
  // docs.cidaas.com openapi/user/patch-user-status, written out: every other change is a 400.
  const DOCUMENTED = [
    'VERIFIED>DECLINED',
    'VERIFIED>PENDING',
    'PENDING>VERIFIED',
    'PENDING>DECLINED',
    'DECLINED>VERIFIED',
    'DECLINED>PENDING',
  ];

  it('allows the documented transitions only; BLOCKED, COMBINED and DELETED are never set, BLOCKED never left', async () => {
    const outcomes: string[] = [];
    for (const from of ['VERIFIED', 'PENDING', 'DECLINED', 'BLOCKED'] as const) {
      for (const to of ['VERIFIED', 'PENDING', 'DECLINED', 'BLOCKED', 'COMBINED', 'DELETED']) {
        const user = double.addUser({ email: `${from}-${to}@example.com`, password: 'pw', userStatus: from });
        const answer = await setStatus(to, user.sub);
        if (answer.status === 200) outcomes.push(`${from}>${to}`);
        else expectRefusal(answer, 400, 10013);
        expect(double.user(`${from}-${to}@example.com`)?.userStatus).toBe(answer.status === 200 ? to : from);
      }
    }
    expect(outcomes.sort()).toEqual(DOCUMENTED.sort());
    expectRefusal(await setStatus('ACTIVE'), 400, 10000);
  });
});

describe('updates', () => {
  it('marks the e-mail verified through the documented admin update, naming the identity right', async () => {
    const { identityId } = double.user('ann@example.com')!;
    expectRefusal(
      await adminUpdate({ provider: 'self', identityId: 'other', email_verified: true }),
      400,
      10014,
    );
    expectRefusal(await adminUpdate({ provider: 'google', email_verified: true }), 400, 10014);
    expect(double.user('ann@example.com')?.email_verified).toBe(false);
    expect((await adminUpdate({ provider: 'self', identityId, email_verified: true })).json).toEqual({
      success: true,
      status: 200,
      data: { updated: true },
    });
    expect(double.user('ann@example.com')).toMatchObject({ email_verified: true, userStatus: 'VERIFIED' });
    // The legacy update exists only in the variant 'legacy-only'.
    expectRefusal(await admin(double, 'PUT', `/users-srv/user/${sub}`, { email_verified: true }), 404, 404);
  });

  it("'legacy-only': the documented update answers the recorded 401, the legacy one takes it", async () => {
    double.variants.adminUpdate = 'legacy-only';
    expectAccessDenied(await adminUpdate({ provider: 'self', email_verified: true }));
    const legacy = await admin(double, 'PUT', `/users-srv/user/${sub}`, {
      provider: 'self',
      email_verified: true,
    });
    expect(legacy.status).toBe(200);
    expect(double.user('ann@example.com')?.email_verified).toBe(true);
  });

  it('never takes the self-service update from the admin client', async () => {
    expectAccessDenied(
      await admin(double, 'PUT', `/users-srv/user/profile/${sub}`, { email_verified: true }),
    );
    expect(double.user('ann@example.com')?.email_verified).toBe(false);
  });
});

describe('fraud-detection-srv/unblock', () => {
  it('lifts a block shown as BLOCKED (200), then finds nothing to lift (204)', async () => {
    const blocked = double.addUser({
      email: 'blocked@example.com',
      password: 'pw',
      userStatus: 'BLOCKED',
    }).sub;
    expect((await unblock({ sub: blocked })).json).toMatchObject({ success: true, status: 200 });
    expect(double.user('blocked@example.com')).toMatchObject({
      userStatus: 'VERIFIED',
      isFraudBlocked: false,
    });
    const again = await unblock({ sub: blocked });
    expect([again.status, again.text]).toEqual([204, '']);
    expect((await unblock({ sub: 'unknown-sub' })).status).toBe(204);
  });

  it('refuses a body without sub (400) and a request without token (401); no call without fraud detection', async () => {
    expectRefusal(await unblock({}), 400, 10015);
    const anonymous = await fetch(`${double.url}/fraud-detection-srv/unblock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sub }),
    });
    expect(anonymous.status).toBe(401);
    double.variants.fraudDetection = false;
    expectRefusal(await unblock({ sub }), 404, 404, 'RouteException');
  });
});

describe('register and reset', () => {
  it('registers VERIFIED with an unverified e-mail, answering the recorded fields; a taken e-mail is 409 + 10011', async () => {
    const body = {
      email: 'bob@example.com',
      password: 'Secret-123',
      password_echo: 'Secret-123',
      provider: 'self',
    };
    const register = async () =>
      admin(double, 'POST', '/users-srv/register', body, { requestId: await newRequestId(double) });
    expect((await register()).json.data).toEqual({
      sub: expect.any(String),
      userStatus: 'VERIFIED',
      email_verified: false,
      q: expect.any(String),
      suggested_action: '',
      suggested_redirect_uri: '',
      next_token: '',
    });
    expectRefusal(await register(), 409, 10011);
  });

  it('e-mails a link to known users only, and a reset leaves the status and a block as they are', async () => {
    double.addUser({ email: 'blocked@example.com', password: 'old', userStatus: 'BLOCKED' });
    const initiate = async (email: string) =>
      admin(double, 'POST', '/users-srv/resetpassword/initiate', {
        requestId: await newRequestId(double),
        email,
        processingType: 'LINK',
        resetMedium: 'email',
      });
    await initiate('nobody@example.com');
    expect(double.lastReset('nobody@example.com')).toBeUndefined();
    await initiate('blocked@example.com');
    const link = double.lastReset('blocked@example.com')!;
    const accept = {
      resetRequestId: link.rprq,
      exchangeId: link.exchangeId,
      password: 'new',
      confirmPassword: 'new',
    };
    expect((await admin(double, 'POST', '/users-srv/resetpassword/accept', accept)).json.data).toEqual({
      reseted: true,
    });
    expect(double.user('blocked@example.com')).toMatchObject({
      password: 'new',
      userStatus: 'BLOCKED',
      isFraudBlocked: true,
    });
  });
});
