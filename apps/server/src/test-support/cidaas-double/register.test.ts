import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CidaasDouble } from './cidaas-double';
import { admin, expectRefusal, newRequestId, startDouble } from './test-helpers';

// POST /users-srv/register (admin API): the requestId header, the tenant's fields, the recorded answer.

let double: CidaasDouble;
beforeEach(async () => {
  double = await startDouble();
  double.addUser({ email: 'ann@example.com', password: 'pw' });
});
afterEach(() => double.close());

describe('register', () => {
  const body = {
    email: 'bob@example.com',
    password: 'Secret-123',
    password_echo: 'Secret-123',
    provider: 'self',
    locale: 'en',
  };
  const register = async (fields: object, requestId?: string) =>
    admin(double, 'POST', '/users-srv/register', fields, {
      requestId: requestId ?? (await newRequestId(double)),
    });

  it('creates a VERIFIED user with an unverified e-mail, answering the recorded fields', async () => {
    const answer = await register(body);
    expect(answer.json).toEqual({
      success: true,
      status: 200,
      data: {
        sub: expect.any(String),
        userStatus: 'VERIFIED',
        email_verified: false,
        q: expect.any(String),
        suggested_action: '',
        suggested_redirect_uri: '',
        next_token: '',
      },
    });
    expect(double.user('bob@example.com')).toMatchObject({
      sub: answer.json.data.sub,
      userStatus: 'VERIFIED',
      email_verified: false,
      password: 'Secret-123',
    });
  });

  it('refuses a missing, unknown or expired request id with 400 + 10001 (UsersException)', async () => {
    expectRefusal(await admin(double, 'POST', '/users-srv/register', body), 400, 10001, 'UsersException');
    expectRefusal(await register(body, 'never-issued'), 400, 10001, 'UsersException');
    const requestId = await newRequestId(double);
    double.expireRequestIds();
    const expired = await register(body, requestId);
    expectRefusal(expired, 400, 10001);
    expect(expired.json.error.error).toBe('Invalid request id');
    expect(double.user('bob@example.com')).toBeUndefined();
  });

  it('refuses a field the tenant requires with 417 + 507', async () => {
    double.variants.requiredRegistrationFields = ['given_name'];
    const answer = await register(body);
    expectRefusal(answer, 417, 507);
    expect(answer.json.error.error).toBe('given_name cannot be null');
    expect((await register({ ...body, given_name: 'Bob' })).status).toBe(200);
    expect(double.user('bob@example.com')?.given_name).toBe('Bob');
  });

  it('refuses a registered e-mail with 409 + 10011 and a malformed body with 400 + 10000', async () => {
    expectRefusal(await register({ ...body, email: 'ANN@example.com' }), 409, 10011);
    expectRefusal(await register({ email: 'x@example.com' }), 400, 10000);
  });
});
