import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: guessing one is hopeless, so the link alone proves the mailbox. */
export function newVerificationId(): string {
  return randomBytes(32).toString('base64url');
}

/** The database keeps only this: a leaked table holds no usable link. */
export function hashVerificationId(verificationId: string): string {
  return createHash('sha256').update(verificationId, 'utf8').digest('hex');
}
