import { describe, expect, it } from 'vitest';
import { userOf } from '../provider-client/user-shapes';
import { consoleAccessOf } from './console-roles';

const ROLES = { operatorRole: 'concierge_operator', managerRole: 'concierge_manager' };
const TENANTS = new Set(['demo', 'r5']);

/** A documented nested profile (cidaas-facts.md, "User by sub") with these roles and groups. */
const profile = (roles: unknown, groups: unknown) =>
  userOf({
    userAccount: { sub: 'u-1', userStatus: 'VERIFIED' },
    identity: { sub: 'u-1', email: 'office@example.ch', email_verified: true },
    roles,
    groups,
  })!;

describe('who the console opens to', () => {
  it('reads both documented shapes of groups: ids alone, and { groupId, roles }', () => {
    // The profile entity's String[] groups: the manager role must then be the user's own.
    expect(consoleAccessOf(profile(['concierge_manager'], ['demo', 'elsewhere']), ROLES, TENANTS)).toEqual({
      role: 'manager',
      tenants: ['demo'],
    });
    expect(consoleAccessOf(profile([], ['demo']), ROLES, TENANTS)).toBeNull();
    // The userinfo entity's groups: the role held in the group counts for that tenant only.
    const inGroups = profile(
      [],
      [
        { groupId: 'r5', roles: ['concierge_manager'] },
        { groupId: 'demo', roles: ['viewer'] },
      ],
    );
    expect(consoleAccessOf(inGroups, ROLES, TENANTS)).toEqual({ role: 'manager', tenants: ['r5'] });
  });

  it('opens every tenant to an operator, and nothing to an account with neither role', () => {
    expect(consoleAccessOf(profile(['concierge_operator'], []), ROLES, TENANTS)).toEqual({
      role: 'operator',
      tenants: [],
    });
    expect(
      consoleAccessOf(profile(['USER'], [{ groupId: 'demo', roles: ['USER'] }]), ROLES, TENANTS),
    ).toBeNull();
    // A profile that names no roles or groups at all (a flat answer) opens nothing.
    expect(consoleAccessOf(userOf({ sub: 'u-2', email: 'x@example.ch' })!, ROLES, TENANTS)).toBeNull();
  });
});
