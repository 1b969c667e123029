import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Compares a presented secret with the expected one in constant time. Both are hashed first, so the
 * comparison takes as long for a short or long guess as for a right one and never tells the length.
 */
export function isSameSecret(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

/**
 * Which of the accepted secrets (two while one is rotated) the presented one is: its position, or -1.
 * Every candidate is compared, also after a match, so the time taken tells neither whether nor which
 * one matched.
 */
export function matchingSecret(presented: string | undefined, accepted: readonly string[]): number {
  let found = -1;
  for (const [index, secret] of accepted.entries()) {
    const isSame = isSameSecret(presented, secret);
    if (isSame && found === -1) found = index;
  }
  return found;
}
