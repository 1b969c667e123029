import { generateKeyPair, randomBytes, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import type { JWK } from 'oidc-provider';
import type { ProviderDb } from '../db/schema';

const generateKeyPairAsync = promisify(generateKeyPair);

export interface ProviderKeys {
  jwks: { keys: JWK[] };
  cookieKeys: string[];
}

/**
 * Loads the signing key set and the cookie keys, making them on first start. Kept in the database so
 * that ID tokens stay verifiable and sessions stay valid across restarts; two instances starting at
 * once agree because the first insert wins and everybody reads back what is stored.
 */
export async function loadOrCreateKeys(db: ProviderDb): Promise<ProviderKeys> {
  const jwks = await loadOrCreate(db, 'jwks', async () => ({ keys: [await generateSigningKey()] }));
  const cookieKeys = await loadOrCreate(db, 'cookie_keys', async () => [
    randomBytes(32).toString('base64url'),
  ]);
  return { jwks: jwks as ProviderKeys['jwks'], cookieKeys: cookieKeys as string[] };
}

async function loadOrCreate(db: ProviderDb, name: string, create: () => Promise<unknown>): Promise<unknown> {
  const existing = await db
    .selectFrom('provider_keys')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirst();
  if (existing) return existing.value;
  await db
    .insertInto('provider_keys')
    .values({ name, value: JSON.stringify(await create()) })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const stored = await db
    .selectFrom('provider_keys')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return stored.value;
}

async function generateSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPairAsync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), use: 'sig', alg: 'RS256' } as JWK;
}
