import { randomUUID } from 'node:crypto';
import { normaliseEmail } from '@concierge/contracts';
import type { CidaasDoubleVariants, DoubleUser, NewDoubleUser } from './types';

/** The tenant's users, in memory; looked up by normalised e-mail or by sub. */
export class UserStore {
  readonly #byEmail = new Map<string, DoubleUser>();
  readonly #bySub = new Map<string, DoubleUser>();

  add(input: NewDoubleUser): DoubleUser {
    const email = normaliseEmail(input.email);
    if (this.#byEmail.has(email)) throw new Error(`cidaas double: ${email} exists already`);
    const now = new Date().toISOString();
    const userStatus = input.userStatus ?? 'VERIFIED';
    const user: DoubleUser = {
      sub: randomUUID(),
      email,
      password: input.password,
      userStatus,
      // Seeded users can sign in by default; self-registered ones start unverified (register route).
      email_verified: input.email_verified ?? true,
      ...(input.given_name === undefined ? {} : { given_name: input.given_name }),
      accountId: randomUUID(),
      identityId: randomUUID(),
      createdTime: now,
      updatedTime: now,
      failedAttempts: 0,
      // BLOCKED is set by the brute-force protection only (documented), so a BLOCKED user is blocked.
      isFraudBlocked: userStatus === 'BLOCKED',
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

  all(): DoubleUser[] {
    return [...this.#bySub.values()];
  }
}

export function touch(user: DoubleUser): void {
  user.updatedTime = new Date().toISOString();
}

/** cidaas's `q`: the sub masked; the exact masking is not recorded, only that it hides the sub. */
export function maskSub(sub: string): string {
  return `${sub.slice(0, 4)}${'*'.repeat(Math.max(sub.length - 8, 0))}${sub.slice(-4)}`;
}

// Documented class names: the JS SDK README's example answer of getProfileInfo
// (Cidaas/cidaas-javascript-sdk README.md), the same nested shape as the Android SDK's entities.
const ACCOUNT_CLASS = 'de.cidaas.management.db.UserAccounts';
const IDENTITY_CLASS = 'de.cidaas.core.db.EnternalSocialIdentity';

/**
 * `GET /users-srv/internal/userinfo/profile/{sub}` as the variant profileShape has it (never the
 * password or the counter). Nested (documented: Android SDK UseprofileResponseDataEntity,
 * UserAccountEntity, IdentityEntity; inheaden/cidaasutils user.go `UserInfo`): the status on
 * `userAccount`, the e-mail and its verification on `identity`, whose provider is `self` for a
 * password user (the PHP SDK's recorded self-service update sends `provider:"self"`). Flat: seen
 * nowhere (variant).
 */
export function profileOf(user: DoubleUser, shape: CidaasDoubleVariants['profileShape']) {
  const givenName = user.given_name === undefined ? {} : { given_name: user.given_name };
  if (shape === 'flat') {
    return {
      sub: user.sub,
      email: user.email,
      email_verified: user.email_verified,
      userStatus: user.userStatus,
      ...givenName,
    };
  }
  return {
    userAccount: {
      _id: user.accountId,
      className: ACCOUNT_CLASS,
      sub: user.sub,
      userStatus: user.userStatus,
      createdTime: user.createdTime,
      updatedTime: user.updatedTime,
    },
    identity: {
      _id: user.identityId,
      className: IDENTITY_CLASS,
      sub: user.sub,
      provider: 'self',
      email: user.email,
      email_verified: user.email_verified,
      ...givenName,
      createdTime: user.createdTime,
      updatedTime: user.updatedTime,
    },
    customFields: {},
    roles: [],
    groups: [],
  };
}

/**
 * A user as the graph search's index has it: documented index paths are `sub`, `userStatus`,
 * `system.email` and `customFields.<key>` (docs.cidaas.com openapi/4.0.6/user/graph-find-users-by-filter,
 * "fields uses index paths such as sub, userStatus, system.email"); `system.email_verified` beside
 * `system.email` is inferred (unknown).
 */
export function indexDocumentOf(user: DoubleUser) {
  return {
    sub: user.sub,
    userStatus: user.userStatus,
    system: { email: user.email, email_verified: user.email_verified },
  };
}

/**
 * The document projected on the space-separated `fields` (documented: "space-separated OpenSearch
 * _source paths for response projection"; paths that match nothing "are typically dropped from
 * the response even when listed"). Without `fields`, the whole document (unknown).
 */
export function project(
  document: Record<string, unknown>,
  fields: string | undefined,
): Record<string, unknown> {
  if (fields === undefined || fields.trim() === '') return document;
  const result: Record<string, unknown> = {};
  for (const path of fields.trim().split(/\s+/)) {
    const parts = path.split('.');
    let source: unknown = document;
    for (const part of parts) {
      source =
        typeof source === 'object' && source !== null ? (source as Record<string, unknown>)[part] : undefined;
    }
    if (source === undefined) continue;
    let target = result;
    for (const part of parts.slice(0, -1)) {
      target[part] ??= {};
      target = target[part] as Record<string, unknown>;
    }
    target[parts.at(-1)!] = source;
  }
  return result;
}
