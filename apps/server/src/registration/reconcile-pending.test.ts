import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { codeRow, insertCode, outboxFor, register, uniqueEmail } from '../test-support/account-fixtures';
import { type ProviderProxy, startProviderProxy } from '../test-support/provider-proxy';
import { sharedProvider } from '../test-support/shared-provider';
import { startTestServer } from '../test-support/test-server';
import { reconcilePendingRegistrations } from './reconcile-pending';

// The provider behind a proxy that loses answers or requests, and a client that gives up quickly.
// The faults are the proxy's, so the provider behind it is the run's shared one.
let proxy: ProviderProxy;
let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  proxy = await startProviderProxy((await sharedProvider()).url);
  server = await startTestServer({}, { provider: { url: proxy.url, timeoutMs: 1500 } });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await proxy?.close();
});
beforeEach(() => {
  proxy.register = { kind: 'forward' };
  proxy.hiddenLookUps = 0;
  proxy.isDown = false;
});

const deps = () => ({
  db: server.db,
  provider: server.provider,
  registry: server.registry,
  config: server.config,
  log: server.app.log,
});

describe('a registration whose provider call has an unknown outcome', () => {
  it('stays pending when the provider created the user but the answer was lost, and the reconciler completes it', async () => {
    proxy.register = { kind: 'forward-then-hang' };
    const code = await insertCode(server.db);
    const email = uniqueEmail();
    const response = await register(server.app, { email, code }, { headers: { 'accept-language': 'it' } });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({
      success: false,
      status: 503,
      error: { code: 'registration_pending' },
    });
    await proxy.withheldAnswers(1);
    // Sent again meanwhile, the person is told the same, not "already registered".
    const again = await register(server.app, { email, code });
    expect(again.json()).toMatchObject({ error: { code: 'registration_pending' } });
    expect(await codeRow(server.db, code)).toMatchObject({
      status: 'pending',
      claimed_email: email,
      sub: null,
    });
    expect(await outboxFor(server.db, email)).toEqual([]);

    // Too young to settle: a request might still be working on it.
    expect(await reconcilePendingRegistrations(deps(), { olderThanSeconds: 60 })).toEqual({
      completed: 0,
      released: 0,
      unresolved: 0,
    });
    const result = await reconcilePendingRegistrations(deps(), { olderThanSeconds: 0 });
    expect(result).toEqual({ completed: 1, released: 0, unresolved: 0 });

    const found = await server.provider.findUserByEmail(email);
    const user = found.kind === 'answer' ? found.data : null;
    if (!user) throw new Error('the provider should have the user');
    expect(await codeRow(server.db, code)).toMatchObject({ status: 'used', sub: user.sub });
    const [mail] = await outboxFor(server.db, email);
    expect(mail).toMatchObject({ kind: 'activation' });
    expect(mail!.subject).toMatch(/^Attivate il vostro account/);
    const activations = await server.db
      .selectFrom('activations')
      .selectAll()
      .where('email', '=', email)
      .execute();
    expect(activations).toHaveLength(1);
    expect(activations[0]).toMatchObject({ sub: user.sub, language: 'it' });

    // Settled codes are not touched again.
    expect(await reconcilePendingRegistrations(deps(), { olderThanSeconds: 0 })).toEqual({
      completed: 0,
      released: 0,
      unresolved: 0,
    });
  });

  it('is released when the request never reached the provider, and the code works again', async () => {
    proxy.register = { kind: 'drop' };
    const code = await insertCode(server.db);
    const email = uniqueEmail();
    const response = await register(server.app, { email, code });
    expect(response.statusCode).toBe(503);
    expect((await codeRow(server.db, code)).status).toBe('pending');
    // Meanwhile the code is taken, also for the same person.
    const meanwhile = await register(server.app, { email: uniqueEmail(), code });
    expect(meanwhile.json()).toMatchObject({ error: { code: 'registration_code_already_registered_db' } });

    expect(await reconcilePendingRegistrations(deps(), { olderThanSeconds: 0 })).toEqual({
      completed: 0,
      released: 1,
      unresolved: 0,
    });
    expect(await codeRow(server.db, code)).toMatchObject({
      status: 'unused',
      claimed_email: null,
      claimed_at: null,
    });
    expect(await outboxFor(server.db, email)).toEqual([]);

    proxy.register = { kind: 'forward' };
    const retry = await register(server.app, { email, code });
    expect(retry.statusCode).toBe(200);
  });

  it('stays pending while the provider cannot be asked', async () => {
    proxy.register = { kind: 'drop' };
    const code = await insertCode(server.db);
    expect((await register(server.app, { email: uniqueEmail(), code })).statusCode).toBe(503);
    proxy.isDown = true;
    expect(await reconcilePendingRegistrations(deps(), { olderThanSeconds: 0 })).toEqual({
      completed: 0,
      released: 0,
      unresolved: 1,
    });
    expect((await codeRow(server.db, code)).status).toBe('pending');
    proxy.isDown = false;
    expect(await reconcilePendingRegistrations(deps(), { olderThanSeconds: 0 })).toMatchObject({
      released: 1,
    });
  });

  it('stays pending when the provider answers with a server error', async () => {
    proxy.register = {
      kind: 'answer',
      status: 500,
      body: { success: false, status: 500, error: { code: 500, error: 'boom' } },
    };
    const code = await insertCode(server.db);
    const response = await register(server.app, { email: uniqueEmail(), code });
    expect(response.json()).toMatchObject({ status: 503, error: { code: 'registration_pending' } });
    expect((await codeRow(server.db, code)).status).toBe('pending');
    await reconcilePendingRegistrations(deps(), { olderThanSeconds: 0 });
    expect((await codeRow(server.db, code)).status).toBe('unused');
  });
});

describe('a definite refusal by the provider', () => {
  it('releases the code and names an e-mail the provider registered in the meantime', async () => {
    // The first look-up says "unknown", the register refuses, and the look-up after the refusal finds
    // the address: somebody registered it just now.
    proxy.hiddenLookUps = 1;
    const code = await insertCode(server.db);
    const response = await register(server.app, { email: 'demo@concierge.test', code });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ error: { code: 'email_already_registered_identity_provider' } });
    expect(await codeRow(server.db, code)).toMatchObject({ status: 'unused', claimed_email: null });
  });

  it('releases the code and answers errorCreatingNewUser for any other refusal', async () => {
    proxy.register = {
      kind: 'answer',
      status: 400,
      body: { success: false, status: 400, error: { code: 'password_too_weak', error: 'too weak' } },
    };
    const code = await insertCode(server.db);
    const email = uniqueEmail();
    const response = await register(server.app, { email, code });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: { code: 'errorCreatingNewUser' } });
    expect(await codeRow(server.db, code)).toMatchObject({ status: 'unused', claimed_email: null });
    expect(await outboxFor(server.db, email)).toEqual([]);
  });

  it('answers 503 and changes nothing when the provider cannot be reached for the look-up', async () => {
    const code = await insertCode(server.db);
    const email = uniqueEmail();
    proxy.isDown = true;
    const response = await register(server.app, { email, code });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ error: { code: 'provider_unreachable' } });
    expect(await codeRow(server.db, code)).toMatchObject({ status: 'unused', claimed_email: null });
  });
});
