import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAtAFullHour } from '../test-support/clock';
import { seedAccountProtection } from '../test-support/protection-fixtures';
import { startTestServer } from '../test-support/test-server';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
  await seedAccountProtection(server.db, 'anna@example.ch', { failures: 2, tenant: 'r5' });
});
afterAll(() => server.close());

// Each test asks from its own address, so that the per-IP limit of one does not spill into another.
let nextAddress = 1;
function ask(query: string, headers: Record<string, string> = {}, remoteAddress = `10.0.0.${nextAddress++}`) {
  return server.app.inject({ url: `/user-login-failed-counter?${query}`, headers, remoteAddress });
}

describe('GET /user-login-failed-counter', () => {
  it("answers [{counter}] with the account's count in every tenant, uncached", async () => {
    for (const subdomain of ['demo', 'r5']) {
      const response = await ask(`subdomain=${subdomain}&email=anna%40example.ch`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([{ counter: 2 }]);
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('says "locked" in every tenant while the account is locked, also when the count was cleared', async () => {
    const email = 'locked-still@example.ch';
    await seedAccountProtection(server.db, email, { failures: 0, lock: 'locked', sub: 'sub-1' });
    for (const subdomain of ['demo', 'r5']) {
      expect((await ask(`subdomain=${subdomain}&email=${encodeURIComponent(email)}`)).json()).toEqual([
        { counter: 3 },
      ]);
    }
  });

  it('says "locked" after an attempt only once the provider has the lock, or when the wait is over', async () => {
    const afterTheThird = (email: string) => ask(`subdomain=demo&email=${encodeURIComponent(email)}&after=2`);

    // The webhook sets the lock while the page asks: the answer comes once it holds.
    await seedAccountProtection(server.db, 'locking@example.ch', { failures: 3, lock: 'requested' });
    const asked = afterTheThird('locking@example.ch');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await server.db
      .updateTable('account_protection')
      .set({ lock_state: 'locked', sub: 'sub-2', locked_at: new Date() })
      .where('email', '=', 'locking@example.ch')
      .execute();
    expect((await asked).json()).toEqual([{ counter: 3 }]);

    // The provider never took it (the lock job retries): "locked" all the same, after the wait.
    await seedAccountProtection(server.db, 'lock-pending@example.ch', { failures: 3, lock: 'requested' });
    const started = Date.now();
    expect((await afterTheThird('lock-pending@example.ch')).json()).toEqual([{ counter: 3 }]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(5000);
  }, 20_000);

  it('compares the e-mail normalised', async () => {
    const response = await ask(`subdomain=demo&email=${encodeURIComponent('  Anna@Example.CH ')}`);
    expect(response.json()).toEqual([{ counter: 2 }]);
  });

  it('answers an unknown e-mail exactly like a known one without failures', async () => {
    await seedAccountProtection(server.db, 'known-without@example.ch', { failures: 0 });
    const unknown = await ask('subdomain=demo&email=nobody%40example.ch');
    const knownWithout = await ask('subdomain=it2&email=known-without%40example.ch');
    for (const response of [unknown, knownWithout]) {
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe('[{"counter":0}]');
    }
    expect(unknown.headers['content-type']).toBe(knownWithout.headers['content-type']);
  });

  it.each(['nobody', 'DEMO', 'a.b', '<script>'])(
    'answers the unknown subdomain %s with 0',
    async (subdomain) => {
      const response = await ask(`subdomain=${encodeURIComponent(subdomain)}&email=anna%40example.ch`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([{ counter: 0 }]);
    },
  );

  it.each([
    ['no parameters', ''],
    ['no e-mail', 'subdomain=demo'],
    ['no subdomain', 'email=anna%40example.ch'],
    ['an empty e-mail', 'subdomain=demo&email=%20%20'],
    ['a subdomain too long', `subdomain=${'a'.repeat(64)}&email=anna%40example.ch`],
    ['an e-mail too long', `subdomain=demo&email=${'a'.repeat(250)}%40example.ch`],
    // the count before an attempt: digits (" " was read as 0, and the answer waited for nothing)
    ...[' ', '', '0x1', '1e2', '-1', '1.5', '1001'].map((after) => [
      `after=${JSON.stringify(after)}`,
      `subdomain=demo&email=anna%40example.ch&after=${encodeURIComponent(after)}`,
    ]),
  ])('answers %s with a 400 envelope', async (_case, query) => {
    const response = await ask(query);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      success: false,
      status: 400,
      error: { code: 'invalid_request' },
    });
  });

  it('limits the questions per e-mail, from whatever address', async () => {
    startAtAFullHour();
    const query = 'subdomain=demo&email=limited%40example.ch';
    for (let hit = 0; hit < 20; hit += 1) expect((await ask(query)).statusCode).toBe(200);
    const limited = await ask(query);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({
      success: false,
      status: 429,
      error: { code: 'too_many_requests' },
    });
    // The wait is the rest of the refusing limit's window (a minute per e-mail), in seconds.
    const windowLeft = 60 - (Date.now() % 60_000) / 1000;
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(Math.floor(windowLeft));
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil(windowLeft) + 1);
    expect((await ask('subdomain=demo&email=other%40example.ch')).statusCode).toBe(200);
  });

  it('limits the questions per address, whatever the e-mail', async () => {
    startAtAFullHour();
    const address = '10.9.9.9';
    const answers = await Promise.all(
      Array.from({ length: 61 }, (_, hit) =>
        ask(`subdomain=demo&email=probe${hit}%40example.ch`, {}, address),
      ),
    );
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(60);
    expect(answers.filter((answer) => answer.statusCode === 429)).toHaveLength(1);
  });

  it('lets the operator scale the limit per address for a shared one, and not the one per e-mail', async () => {
    startAtAFullHour();
    const shared = await startTestServer({ ADDRESS_LIMITS_FACTOR: '1.5' });
    try {
      const address = '10.9.9.10';
      const fromEstate = (email: string) =>
        shared.app.inject({
          url: `/user-login-failed-counter?subdomain=demo&email=${email}`,
          remoteAddress: address,
        });
      const answers = await Promise.all(
        Array.from({ length: 91 }, (_, hit) => fromEstate(`estate${hit}%40example.ch`)),
      );
      expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(90);
      expect(answers.filter((answer) => answer.statusCode === 429)).toHaveLength(1);
      // One e-mail from many addresses is still one person's account being hammered: 20 a minute.
      const oneEmail = await Promise.all(
        Array.from({ length: 21 }, (_, hit) =>
          shared.app.inject({
            url: '/user-login-failed-counter?subdomain=demo&email=hammered%40example.ch',
            remoteAddress: `10.8.0.${hit + 1}`,
          }),
        ),
      );
      expect(oneEmail.filter((answer) => answer.statusCode === 429)).toHaveLength(1);
    } finally {
      await shared.close();
    }
  });

  it('lets the portal read the answer from its origin and nobody else', async () => {
    const query = 'subdomain=demo&email=anna%40example.ch';
    const fromPortal = await ask(query, { origin: 'http://portal.test' });
    expect(fromPortal.headers['access-control-allow-origin']).toBe('http://portal.test');
    expect(fromPortal.headers.vary).toContain('Origin');
    // Also on a refusal, so that the portal can read why.
    const refused = await ask('subdomain=demo', { origin: 'http://portal.test' });
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['access-control-allow-origin']).toBe('http://portal.test');
    const fromElsewhere = await ask(query, { origin: 'https://evil.example' });
    expect(fromElsewhere.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await server.app.inject({
      method: 'OPTIONS',
      url: '/user-login-failed-counter',
      headers: { origin: 'http://portal.test', 'access-control-request-method': 'GET' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('http://portal.test');
    expect(preflight.headers['access-control-allow-methods']).toBe('GET');
  });
});
