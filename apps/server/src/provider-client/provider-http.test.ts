import { freePort } from '@concierge/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeProvider, startFakeProvider } from '../test-support/fake-provider';
import type { BreakerState } from './circuit-breaker';
import { ProviderClient } from './provider-client';
import type { ProviderCallObserver, ProviderHttpOptions } from './provider-http';

// Timeouts, retries and the circuit breaker of every provider call (docs/operations.md, "Provider
// calls"), against a fake provider that counts what reaches it.

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake?.close());
beforeEach(() => {
  fake.release();
  fake.behaviour = { kind: 'answer' };
  fake.routes.clear();
  fake.requests.length = 0;
});

interface Seen {
  retried: string[];
  rejected: string[];
  called: string[];
  states: BreakerState[];
}

function clientOf(url: string, options: Partial<ProviderHttpOptions> = {}) {
  const seen: Seen = { retried: [], rejected: [], called: [], states: [] };
  const observer: ProviderCallObserver = {
    called: (operation, outcome) => seen.called.push(`${operation} ${outcome}`),
    retried: (operation) => seen.retried.push(operation),
    rejected: (operation) => seen.rejected.push(operation),
    breakerChanged: (state) => seen.states.push(state),
  };
  const client = new ProviderClient({
    baseUrl: url,
    clientId: 'concierge-server',
    clientSecret: 'a-test-client-secret',
    // Tiny backoff: what is tested is how often, never how long.
    retryBackoffMs: 1,
    breaker: { threshold: 100 },
    observer,
    ...options,
  });
  return { client, seen };
}

const SIGN_IN_CLIENT = { clientId: 'property-portal-demo', redirectUri: 'http://localhost:8082/callback' };
const PROFILE = 'GET /users-srv/internal/userinfo/profile/sub-1';

describe('retries', () => {
  it('sends idempotent calls again after a 503, and never register, reset initiate or reset accept', async () => {
    fake.behaviour = { kind: '503' };
    const { client, seen } = clientOf(fake.url, { retries: 1 });

    expect(await client.findUserBySub('sub-1')).toMatchObject({ kind: 'unknown' });
    expect(await client.findUserByEmail('anna@example.ch')).toMatchObject({ kind: 'unknown' });
    expect(await client.generateRequestId(SIGN_IN_CLIENT)).toMatchObject({ kind: 'unknown' });
    expect(fake.count(PROFILE)).toBe(2);
    expect(fake.count('POST /useractions-srv/userexistence')).toBe(2);
    expect(fake.count('POST /authz-srv/authrequest/authz/generate')).toBe(2);

    const registered = await client.registerUser({
      requestId: 'r',
      email: 'anna@example.ch',
      password: 'Pw-1234!',
    });
    const initiated = await client.initiateReset({ requestId: 'r', email: 'anna@example.ch' });
    const accepted = await client.acceptReset({
      resetRequestId: 'a',
      exchangeId: 'b',
      password: 'Pw-1234!',
      confirmPassword: 'Pw-1234!',
    });
    for (const result of [registered, initiated, accepted]) expect(result).toMatchObject({ kind: 'unknown' });
    expect(fake.count('POST /users-srv/register')).toBe(1);
    expect(fake.count('POST /users-srv/resetpassword/initiate')).toBe(1);
    expect(fake.count('POST /users-srv/resetpassword/accept')).toBe(1);
    expect(seen.retried.sort()).toEqual(['generate_request_id', 'user_by_sub', 'user_existence']);
    // The metrics hear of each call once, with its outcome after all attempts.
    expect(seen.called).toContain('register unknown');
    expect(seen.called.filter((call) => call === 'user_by_sub unknown')).toHaveLength(1);
  });

  it('sends the status and e-mail-verified changes again: they set a value, they do not toggle one', async () => {
    const { client } = clientOf(fake.url, { retries: 2 });
    fake.routes.set(PROFILE, {
      kind: 'answer',
      data: { sub: 'sub-1', userStatus: 'VERIFIED', email_verified: false },
    });
    fake.routes.set('PATCH /user-srv/users/sub-1/status', { kind: '503' });
    fake.routes.set('PUT /user-srv/users/sub-1', { kind: '503' });
    expect(await client.lockAccount('sub-1')).toMatchObject({ kind: 'unknown' });
    expect(fake.count('PATCH /user-srv/users/sub-1/status')).toBe(3);
    expect(await client.verifyAccount('sub-1')).toMatchObject({ kind: 'unknown' });
    expect(fake.count('PUT /user-srv/users/sub-1')).toBe(3);
  });

  it('does not send a call again after its timeout: its time is spent', async () => {
    fake.behaviour = { kind: 'hang' };
    const { client, seen } = clientOf(fake.url, { retries: 2, timeoutMs: 200 });
    const result = await client.findUserBySub('sub-1');
    expect(result).toMatchObject({ kind: 'unknown', reason: expect.stringContaining('TimeoutError') });
    expect(fake.count(PROFILE)).toBe(1);
    expect(seen.retried).toEqual([]);
  });

  it('sends an idempotent call again when the connection is refused, a registration never', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const { client, seen } = clientOf(closed, { retries: 1 });
    // The token request is the first to meet the closed port: it is retried, the call is not sent.
    const looked = await client.findUserBySub('sub-1');
    expect(looked).toMatchObject({ kind: 'unknown', isNotSent: true });
    const registered = await client.registerUser({
      requestId: 'r',
      email: 'a@example.ch',
      password: 'Pw-1234!',
    });
    expect(registered).toMatchObject({ kind: 'unknown', isNotSent: true });
    // Without a token nothing was sent: only the token request was tried again, twice.
    expect(seen.retried).toEqual(['token', 'token']);
    const generated = await client.generateRequestId(SIGN_IN_CLIENT);
    expect(generated).toMatchObject({ kind: 'unknown' });
    expect(generated).not.toMatchObject({ isNotSent: true });
    expect(seen.retried).toEqual(['token', 'token', 'generate_request_id']);
  });
});

describe('the circuit breaker', () => {
  function breakerClient() {
    let now = 1_000_000;
    const { client, seen } = clientOf(fake.url, {
      retries: 0,
      breaker: { threshold: 3, windowMs: 10_000, coolDownMs: 30_000, now: () => now },
    });
    return {
      client,
      seen,
      advance: (ms: number) => {
        now += ms;
      },
    };
  }

  async function openIt(client: ProviderClient) {
    fake.behaviour = { kind: '503' };
    for (let call = 0; call < 3; call += 1) await client.findUserBySub('sub-1');
    expect(fake.count(PROFILE)).toBe(3);
  }

  it('opens after 3 failures in a row and fails fast without sending anything', async () => {
    const { client, seen, advance } = breakerClient();
    await openIt(client);
    expect(seen.states).toEqual(['open']);

    const held = await client.findUserBySub('sub-1');
    expect(held).toMatchObject({
      kind: 'unknown',
      isNotSent: true,
      reason: expect.stringContaining('circuit open'),
    });
    const registered = await client.registerUser({
      requestId: 'r',
      email: 'a@example.ch',
      password: 'Pw-1234!',
    });
    expect(registered).toMatchObject({ kind: 'unknown', isNotSent: true });
    advance(29_000);
    expect(await client.findUserBySub('sub-1')).toMatchObject({ isNotSent: true });
    expect(fake.requests).toHaveLength(3);
    expect(seen.rejected).toEqual(['user_by_sub', 'register', 'user_by_sub']);
  });

  it('half-opens after the cool-down: one trial call, whose answer closes it', async () => {
    const { client, seen, advance } = breakerClient();
    await openIt(client);
    advance(30_000);
    fake.behaviour = { kind: 'hang' };
    const trial = client.findUserBySub('sub-1');
    // The trial call has reached the fake, which holds it.
    await vi.waitUntil(() => fake.count(PROFILE) === 4, { timeout: 10_000, interval: 10 });
    // While the trial is out, every other call still fails fast.
    expect(await client.findUserBySub('sub-1')).toMatchObject({ kind: 'unknown', isNotSent: true });
    expect(fake.count(PROFILE)).toBe(4);
    fake.release();
    expect(await trial).toMatchObject({ kind: 'answer' });
    expect(seen.states).toEqual(['open', 'half_open', 'closed']);
    expect(await client.findUserBySub('sub-1')).toMatchObject({ kind: 'answer' });
    expect(fake.count(PROFILE)).toBe(5);
  });

  it('opens again when the trial call fails, for another cool-down', async () => {
    const { client, seen, advance } = breakerClient();
    await openIt(client);
    advance(30_000);
    expect(await client.findUserBySub('sub-1')).toMatchObject({ kind: 'unknown' });
    expect(fake.count(PROFILE)).toBe(4);
    expect(seen.states).toEqual(['open', 'half_open', 'open']);
    expect(await client.findUserBySub('sub-1')).toMatchObject({ isNotSent: true });
    expect(fake.count(PROFILE)).toBe(4);
  });

  it('counts a refusal as the provider being there', async () => {
    const { client, seen } = breakerClient();
    fake.behaviour = { kind: '503' };
    await client.findUserBySub('sub-1');
    await client.findUserBySub('sub-1');
    fake.behaviour = { kind: 'answer' };
    // The fake's answer to register lacks a sub: an unknown outcome to the caller, an answer on the wire.
    await client.registerUser({ requestId: 'r', email: 'a@example.ch', password: 'Pw-1234!' });
    fake.behaviour = { kind: '503' };
    await client.findUserBySub('sub-1');
    await client.findUserBySub('sub-1');
    expect(seen.states).toEqual([]);
    await client.findUserBySub('sub-1');
    expect(seen.states).toEqual(['open']);
  });
});
