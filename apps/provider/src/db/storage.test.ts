import { type Database, openTestDatabase, sql } from '@concierge/database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseAdapter, deleteExpiredPayloads } from '../oidc/adapter';
import { loadOrCreateKeys } from '../oidc/keys';
import { createUser, DEMO_USER, findUserByCredentials, findUserByEmail, seedDemoUser } from '../users/users';
import { migrations } from './migrations';
import type { ProviderTables } from './schema';

describe('provider storage', () => {
  let database: Database<ProviderTables>;
  beforeAll(async () => {
    database = await openTestDatabase<ProviderTables>('provider', migrations);
  });
  afterAll(() => database.close());

  describe('DatabaseAdapter', () => {
    it('stores, finds, consumes and destroys a payload per kind', async () => {
      const codes = new DatabaseAdapter(database.db, 'AuthorizationCode');
      const sessions = new DatabaseAdapter(database.db, 'Session');
      await codes.upsert('code-1', { jti: 'code-1', kind: 'AuthorizationCode', grantId: 'g1' }, 60);
      expect(await codes.find('code-1')).toEqual({ jti: 'code-1', kind: 'AuthorizationCode', grantId: 'g1' });
      expect(await sessions.find('code-1')).toBeUndefined();

      await codes.consume('code-1');
      expect((await codes.find('code-1'))?.consumed).toBeTypeOf('number');

      await codes.destroy('code-1');
      expect(await codes.find('code-1')).toBeUndefined();
    });

    it('replaces a payload on upsert', async () => {
      const grants = new DatabaseAdapter(database.db, 'Grant');
      await grants.upsert('grant-1', { jti: 'grant-1', scope: 'openid' }, 60);
      await grants.upsert('grant-1', { jti: 'grant-1', scope: 'openid email' }, 60);
      expect(await grants.find('grant-1')).toEqual({ jti: 'grant-1', scope: 'openid email' });
    });

    it('treats expired rows as absent and deletes them on housekeeping', async () => {
      const interactions = new DatabaseAdapter(database.db, 'Interaction');
      await interactions.upsert('old', { jti: 'old' }, -1);
      await interactions.upsert('forever', { jti: 'forever' });
      expect(await interactions.find('old')).toBeUndefined();
      expect(await interactions.find('forever')).toEqual({ jti: 'forever' });
      expect(await deleteExpiredPayloads(database.db)).toBeGreaterThanOrEqual(1);
      expect(await interactions.find('forever')).toBeDefined();
    });

    it('finds sessions by uid and device codes by user code', async () => {
      const sessions = new DatabaseAdapter(database.db, 'Session');
      await sessions.upsert('session-1', { jti: 'session-1', uid: 'uid-1', accountId: 'a' }, 60);
      expect((await sessions.findByUid('uid-1'))?.accountId).toBe('a');
      const deviceCodes = new DatabaseAdapter(database.db, 'DeviceCode');
      await deviceCodes.upsert('device-1', { jti: 'device-1', userCode: 'ABCD-EFGH' }, 60);
      expect((await deviceCodes.findByUserCode('ABCD-EFGH'))?.jti).toBe('device-1');
    });

    it('revokes by grant id only within its own kind', async () => {
      const accessTokens = new DatabaseAdapter(database.db, 'AccessToken');
      const refreshTokens = new DatabaseAdapter(database.db, 'RefreshToken');
      await accessTokens.upsert('at-1', { jti: 'at-1', grantId: 'grant-x' }, 60);
      await accessTokens.upsert('at-2', { jti: 'at-2', grantId: 'grant-y' }, 60);
      await refreshTokens.upsert('rt-1', { jti: 'rt-1', grantId: 'grant-x' }, 60);
      await accessTokens.revokeByGrantId('grant-x');
      expect(await accessTokens.find('at-1')).toBeUndefined();
      expect(await accessTokens.find('at-2')).toBeDefined();
      expect(await refreshTokens.find('rt-1')).toBeDefined();
    });
  });

  it('makes the signing and cookie keys once and returns the same ones afterwards', async () => {
    const first = await loadOrCreateKeys(database.db);
    const second = await loadOrCreateKeys(database.db);
    expect(second).toEqual(first);
    expect(first.jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(first.jwks.keys[0]?.d).toBeTruthy();
    expect(first.cookieKeys[0]?.length).toBeGreaterThanOrEqual(32);
  });

  describe('users', () => {
    it('seeds the demo user once', async () => {
      await seedDemoUser(database.db);
      await seedDemoUser(database.db);
      const demo = await findUserByEmail(database.db, DEMO_USER.email);
      expect(demo).toMatchObject({
        status: 'VERIFIED',
        email_verified: true,
        given_name: 'Demo',
        family_name: 'Mieter',
        locale: 'de',
        roles: [],
      });
      expect(
        await findUserByCredentials(database.db, 'DEMO@concierge.test ', DEMO_USER.password),
      ).toBeDefined();
    });

    it('keeps one account per e-mail, whatever the case', async () => {
      const first = await createUser(database.db, { email: 'Case@Example.com', password: 'Passw0rd!' });
      const second = await createUser(database.db, { email: 'case@example.com ', password: 'Passw0rd!' });
      expect(first.isCreated).toBe(true);
      expect(second).toEqual({ isCreated: false, reason: 'email_taken' });
    });

    it('finds nobody for a wrong password or an unknown e-mail', async () => {
      expect(await findUserByCredentials(database.db, DEMO_USER.email, 'wrong')).toBeUndefined();
      expect(
        await findUserByCredentials(database.db, 'nobody@example.com', DEMO_USER.password),
      ).toBeUndefined();
    });
  });
});

describe('migration 0007: e-mail verification and BLOCKED', () => {
  const LATEST = '0007_email_verified_and_blocked';
  let database: Database<ProviderTables>;
  beforeAll(async () => {
    const { [LATEST]: _latest, ...before } = migrations;
    database = await openTestDatabase<ProviderTables>('provider', before);
    await sql`insert into users (sub, email, password_hash, status) values ('old-1', 'old@example.com', 'x', 'VERIFIED')`.execute(
      database.db,
    );
    await migrations[LATEST]?.up(database.db);
  });
  afterAll(() => database.close());

  it('counts the e-mails of existing users as verified', async () => {
    expect(await findUserByEmail(database.db, 'old@example.com')).toMatchObject({
      status: 'VERIFIED',
      email_verified: true,
    });
  });

  it('takes BLOCKED as a status and still refuses unknown ones', async () => {
    const insert = (sub: string, status: string) =>
      sql`insert into users (sub, email, password_hash, status, email_verified) values (${sub}, ${`${sub}@example.com`}, 'x', ${status}, false)`.execute(
        database.db,
      );
    await insert('blocked-1', 'BLOCKED');
    await expect(insert('active-1', 'ACTIVE')).rejects.toThrow(/users_status_check/);
  });

  it('has no default for email_verified, so every insert states it', async () => {
    await expect(
      sql`insert into users (sub, email, password_hash, status) values ('new-1', 'new@example.com', 'x', 'VERIFIED')`.execute(
        database.db,
      ),
    ).rejects.toThrow(/email_verified/);
  });
});
