import { randomUUID } from 'node:crypto';
import { normaliseEmail } from '@concierge/contracts';
import type { DoubleUser, NewDoubleUser } from './types';

/** The tenant's users, in memory; looked up by normalised e-mail or by sub. */
export class UserStore {
  readonly #byEmail = new Map<string, DoubleUser>();
  readonly #bySub = new Map<string, DoubleUser>();

  add(input: NewDoubleUser): DoubleUser {
    const email = normaliseEmail(input.email);
    if (this.#byEmail.has(email)) throw new Error(`cidaas double: ${email} exists already`);
    const user: DoubleUser = {
      sub: randomUUID(),
      email,
      password: input.password,
      userStatus: input.userStatus ?? 'VERIFIED',
      // Seeded users can sign in by default; self-registered ones start unverified (register route).
      email_verified: input.email_verified ?? true,
      ...(input.given_name === undefined ? {} : { given_name: input.given_name }),
      failedAttempts: 0,
    };
    this.#byEmail.set(email, user);
    this.#bySub.set(user.sub, user);
    return user;
  }

  byEmail(email: string): DoubleUser | undefined {
    return this.#byEmail.get(normaliseEmail(email));
  }

  bySub(sub: string): DoubleUser | undefined {
    return this.#bySub.get(sub);
  }
}

/** cidaas's `q`: the sub masked; the exact masking is not recorded, only that it hides the sub. */
export function maskSub(sub: string): string {
  return `${sub.slice(0, 4)}${'*'.repeat(Math.max(sub.length - 8, 0))}${sub.slice(-4)}`;
}

/** What the profile and search calls show of a user (never the password or the counter). */
export function publicProfile(user: DoubleUser) {
  return {
    sub: user.sub,
    email: user.email,
    email_verified: user.email_verified,
    userStatus: user.userStatus,
    ...(user.given_name === undefined ? {} : { given_name: user.given_name }),
  };
}
