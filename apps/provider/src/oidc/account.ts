import type { Account, AccountClaims, FindAccount } from 'oidc-provider';
import type { ProviderConfig } from '../config';
import type { ProviderDb } from '../db/schema';
import { findUserBySub, type User } from '../users/users';

export interface ConciergeAccount extends Account {
  roles: string[];
}

/**
 * Only users who could sign in now are accounts: VERIFIED, with a verified e-mail when that is
 * required. A user set to PENDING, DECLINED or BLOCKED loses userinfo and refresh at once, and an
 * existing session is sent back to the login page (oidc/policy.ts).
 */
export function createFindAccount(db: ProviderDb, rules: ProviderConfig['signIn']): FindAccount {
  return async (_ctx, sub) => {
    const user = await findUserBySub(db, sub);
    if (user?.status !== 'VERIFIED') return undefined;
    return user.email_verified || !rules.isVerifiedEmailRequired ? toAccount(user) : undefined;
  };
}

export function toAccount(user: User): ConciergeAccount {
  return {
    accountId: user.sub,
    roles: user.roles,
    // oidc-provider filters these by the granted scopes and claims (email, profile, mobile).
    claims: () =>
      withoutNulls({
        sub: user.sub,
        email: user.email,
        email_verified: user.email_verified,
        given_name: user.given_name,
        family_name: user.family_name,
        locale: user.locale,
        mobile_number: user.mobile_number,
      }),
  };
}

export function rolesOf(account: Account | undefined): string[] {
  const roles = account?.roles;
  return Array.isArray(roles) ? roles.filter((role): role is string => typeof role === 'string') : [];
}

function withoutNulls(claims: AccountClaims): AccountClaims {
  return Object.fromEntries(Object.entries(claims).filter(([, value]) => value !== null)) as AccountClaims;
}
