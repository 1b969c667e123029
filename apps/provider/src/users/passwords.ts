import { randomBytes } from 'node:crypto';
import { type Algorithm, hash, verify } from '@node-rs/argon2';

// The package's Algorithm is a const enum, which isolatedModules cannot read; 2 is Argon2id.
const ARGON2ID = 2 as Algorithm;

/** OWASP's argon2id recommendation: 19 MiB, 2 iterations, 1 lane (~10 ms here, STACK-NOTES). */
const HASH_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, HASH_OPTIONS);
}

// A hash of a random password with the same parameters: checking against it costs what a real check
// costs, so the answer time does not tell whether an e-mail has an account.
let dummyHash: Promise<string> | undefined;

/** Verifies against the stored hash, or spends the same time when there is none. */
export async function verifyPassword(storedHash: string | undefined, password: string): Promise<boolean> {
  dummyHash ??= hashPassword(randomBytes(24).toString('base64url'));
  const target = storedHash ?? (await dummyHash);
  try {
    const isMatch = await verify(target, password);
    return storedHash !== undefined && isMatch;
  } catch {
    // An unreadable stored hash is a wrong password, not a crash of the login.
    return false;
  }
}
