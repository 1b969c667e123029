import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CidaasDouble, startCidaasDouble } from '../../test-support/cidaas-double/cidaas-double';
import { TEST_ADMIN_CLIENT } from '../../test-support/embedded-provider';
import { seedAccountProtection } from '../../test-support/protection-fixtures';
import { startTestServer } from '../../test-support/test-server';
import { readCounter } from './failed-login-counter';
import { applyRequestedLocks } from './lock-applier';

// Issue "The lock holds": three failed sign-ins lock the account until a reset, whatever the
// timing, the tenant or cidaas's answers. Three server instances on one database, as behind the load
// balancer; the recorded-cidaas double answers as cidaas documents (nested user profile); events come
// in cidaas's documented webhook body: no id, no e-mail, the user as actorId/objectId.

const API_KEY = 'protection-test-key-0123456789';
const PASSWORD = 'Start-Pass1!';
const CLIENTS = { demo: 'property-portal-demo', it2: 'property-portal-it2', r5: 'property-portal-r5' };
const REDIRECT_URI = 'http://localhost:8082/callback';

let double: CidaasDouble;
let instances: Awaited<ReturnType<typeof startTestServer>>[];
beforeAll(async () => {
  double = await startCidaasDouble({
    clientCredentials: TEST_ADMIN_CLIENT,
    clients: Object.values(CLIENTS).map((clientId) => ({
      clientId,
      hostedPageUrl: 'http://portal.test/login',
      redirectUris: [REDIRECT_URI],
    })),
  });
  const first = await startTestServer({ WEBHOOK_API_KEY: API_KEY }, { provider: { url: double.url } });
  instances = [first];
  for (let other = 0; other < 2; other += 1) {
    instances.push(
      await startTestServer({ WEBHOOK_API_KEY: API_KEY }, { provider: { url: double.url }, db: first.db }),
    );
  }
}, 60_000);
afterAll(async () => {
  for (const instance of instances ?? []) await instance.close();
  await double?.close();
});

const db = () => instances[0]!.db;

function newUser(): { email: string; sub: string } {
  const email = `protected-${randomUUID().slice(0, 8)}@example.ch`;
  return { email, ...double.addUser({ email, password: PASSWORD }) };
}

/** cidaas's documented webhook body (cidaas-facts.md, "Webhooks"). */
function documentedEvent(eventtype: string, sub: string, at: Date, tenant: keyof typeof CLIENTS = 'demo') {
  return {
    eventtype,
    createTime: at.toISOString(),
    client_id: CLIENTS[tenant],
    tenantKey: 'double',
    actorId: sub,
    metaData: {},
    objectId: sub,
    objectType: 'USER',
  };
}

let nextInstance = 0;
/** Delivered to the instances in turn, as a load balancer would. */
async function deliver(body: object): Promise<number> {
  const instance = instances[nextInstance++ % instances.length]!;
  const response = await instance.app.inject({
    method: 'POST',
    url: '/api/cidaas-webhook/events',
    headers: { 'x-api-key': API_KEY },
    payload: body,
  });
  return response.statusCode;
}

/** Whether the provider lets the password sign in (its hosted-page login, as the browser posts it). */
async function signsIn(email: string, password = PASSWORD): Promise<boolean> {
  const requestId = await instances[0]!.provider.generateRequestId({
    clientId: CLIENTS.demo,
    redirectUri: REDIRECT_URI,
  });
  if (requestId.kind !== 'answer') throw new Error('no request id');
  const response = await fetch(`${double.url}/login-srv/login`, {
    method: 'POST',
    body: new URLSearchParams({
      username: email,
      password,
      requestId: requestId.data,
      username_type: 'email',
    }),
    redirect: 'manual',
  });
  const location = new URL(response.headers.get('location') ?? '', double.url);
  return !location.searchParams.has('error');
}

const counterOf = async (email: string) => (await readCounter(db(), email)).counter;
const ago = (ms: number) => new Date(Date.now() - ms);

describe('the lock', () => {
  it('holds after bursts of parallel failures spread over three instances and their background jobs', async () => {
    const undone: string[] = [];
    for (let burst = 0; burst < 50; burst += 1) {
      const { email, sub } = newUser();
      const size = 6 + (burst % 15);
      const failures = Array.from({ length: size }, (_, index) =>
        deliver(documentedEvent('LOGIN_FAILURE', sub, ago(size - index))),
      );
      // Every instance's background job applies what is asked for, at the same time as the webhooks.
      const jobs = instances.map((instance) =>
        applyRequestedLocks({ db: instance.db, provider: instance.provider, log: instance.app.log }),
      );
      expect(await Promise.all(failures)).toEqual(Array(size).fill(200));
      await Promise.all(jobs);
      await applyRequestedLocks({ db: db(), provider: instances[0]!.provider, log: instances[0]!.app.log });
      if (double.user(email)?.userStatus !== 'DECLINED' || (await counterOf(email)) < 3) undone.push(email);
    }
    expect(undone).toEqual([]);
  }, 120_000);

  it('refuses the right password once the third failure has locked the account', async () => {
    const { email, sub } = newUser();
    for (const ms of [3, 2]) expect(await deliver(documentedEvent('LOGIN_FAILURE', sub, ago(ms)))).toBe(200);
    expect(double.user(email)?.userStatus).toBe('VERIFIED');
    expect(await deliver(documentedEvent('LOGIN_FAILURE', sub, ago(1)))).toBe(200);
    expect(double.user(email)?.userStatus).toBe('DECLINED');
    expect(await signsIn(email)).toBe(false);
  });

  it('counts failures per account: one through each of three tenants locks it', async () => {
    const { email, sub } = newUser();
    const tenants = ['demo', 'it2', 'r5'] as const;
    for (const [index, tenant] of tenants.entries()) {
      await deliver(documentedEvent('LOGIN_FAILURE', sub, ago(10 - index), tenant));
    }
    expect(double.user(email)?.userStatus).toBe('DECLINED');
    for (const subdomain of tenants) {
      const answer = await instances[0]!.app.inject({
        url: `/user-login-failed-counter?subdomain=${subdomain}&email=${encodeURIComponent(email)}`,
      });
      expect(answer.json()).toEqual([{ counter: 3 }]);
    }
  });

  it('takes a redelivered documented event once, and the key in the query string too', async () => {
    const { email, sub } = newUser();
    const body = documentedEvent('LOGIN_FAILURE', sub, ago(5));
    expect(await deliver(body)).toBe(200);
    expect(await deliver(body)).toBe(200);
    const inQuery = await instances[1]!.app.inject({
      method: 'POST',
      url: `/api/cidaas-webhook/events?X-API-Key=${API_KEY}`,
      payload: body,
    });
    expect(inQuery.statusCode).toBe(200);
    expect(inQuery.json().data.outcome).toBe('duplicate');
    expect(await counterOf(email)).toBe(1);
  });

  it('is lifted by a reset, and a replayed reset does not lift the lock that came after it', async () => {
    const { email, sub } = newUser();
    for (const ms of [60_000, 50_000, 40_000]) await deliver(documentedEvent('LOGIN_FAILURE', sub, ago(ms)));
    expect(double.user(email)?.userStatus).toBe('DECLINED');
    const reset = documentedEvent('PASSWORD_RESET', sub, ago(30_000));
    expect(await deliver(reset)).toBe(200);
    expect(double.user(email)?.userStatus).toBe('VERIFIED');
    expect(await counterOf(email)).toBe(0);
    expect(await signsIn(email)).toBe(true);

    for (const ms of [20_000, 15_000, 10_000]) await deliver(documentedEvent('LOGIN_FAILURE', sub, ago(ms)));
    expect(double.user(email)?.userStatus).toBe('DECLINED');
    // The same reset again: as cidaas retries it, and as a copy with an id of its own.
    expect(await deliver(reset)).toBe(200);
    expect(await deliver({ ...reset, id: randomUUID() })).toBe(200);
    expect(double.user(email)?.userStatus).toBe('DECLINED');
    expect(await counterOf(email)).toBe(3);
    expect(await signsIn(email)).toBe(false);
  });

  it('keeps failures that came after a late success event', async () => {
    const { email, sub } = newUser();
    for (const ms of [3000, 2000]) await deliver(documentedEvent('LOGIN_FAILURE', sub, ago(ms)));
    // A sign-in an hour ago, delivered only now (cidaas retries after 1, 5 and 10 minutes).
    await deliver(documentedEvent('LOGIN_WITH_CIDAAS', sub, ago(3_600_000)));
    expect(await counterOf(email)).toBe(2);
    await deliver(documentedEvent('LOGIN_FAILURE', sub, ago(1000)));
    expect(double.user(email)?.userStatus).toBe('DECLINED');
  });

  it("locks the account of the event's e-mail, never another account's sub it names", async () => {
    const victim = newUser();
    const named = newUser();
    for (let failure = 0; failure < 3; failure += 1) {
      await deliver({
        id: randomUUID(),
        eventtype: 'LOGIN_FAILURE',
        client_id: CLIENTS.demo,
        email: named.email,
        sub: victim.sub,
      });
    }
    expect(double.user(named.email)?.userStatus).toBe('DECLINED');
    expect(double.user(victim.email)?.userStatus).toBe('VERIFIED');
  });

  it('looks an account up again by its e-mail when the sub on record is gone, to lock and to unlock', async () => {
    const { email } = newUser();
    await seedAccountProtection(db(), email, { failures: 0, sub: 'a-deleted-account' });
    const failure = (ms: number) => ({
      eventtype: 'LOGIN_FAILURE',
      createTime: ago(ms).toISOString(),
      client_id: CLIENTS.demo,
      email,
    });
    for (const ms of [3000, 2000, 1000]) await deliver(failure(ms));
    const instance = instances[0]!;
    await applyRequestedLocks({ db: instance.db, provider: instance.provider, log: instance.app.log });
    expect(double.user(email)?.userStatus).toBe('DECLINED');

    const locked = newUser();
    await seedAccountProtection(db(), locked.email, {
      failures: 3,
      lock: 'locked',
      sub: 'another-deleted-account',
    });
    await instance.provider.lockAccount(locked.sub);
    const reset = {
      eventtype: 'PASSWORD_RESET',
      createTime: new Date().toISOString(),
      client_id: CLIENTS.demo,
      email: locked.email,
    };
    expect(await deliver(reset)).toBe(200);
    expect(double.user(locked.email)?.userStatus).toBe('VERIFIED');
  });
});
