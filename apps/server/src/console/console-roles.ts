import type { ProviderUser } from '../provider-client/user-shapes';

export interface ConsoleRoles {
  /** CONSOLE_OPERATOR_ROLE: every tenant. */
  operatorRole: string;
  /** CONSOLE_MANAGER_ROLE: the tenants their groups name. */
  managerRole: string;
}

export type ConsoleAccess = { role: 'operator'; tenants: [] } | { role: 'manager'; tenants: string[] };

/**
 * What the console opens to a user, from their profile at the provider (docs/cidaas-setup.md,
 * "Console"): an operator is a user with the operator role, directly or in any group; a property
 * manager is one with the manager role, and manages each tenant whose subdomain is the id of a group
 * they hold it in — a group that names its roles must name the manager role, a group given by its id
 * alone counts when the user holds the role directly. Null: no console for them (no role, or a
 * manager of no tenant the registry knows).
 */
export function consoleAccessOf(
  user: Pick<ProviderUser, 'roles' | 'groups'>,
  roles: ConsoleRoles,
  knownTenants: ReadonlySet<string>,
): ConsoleAccess | null {
  const direct = user.roles ?? [];
  const groups = user.groups ?? [];
  const holds = (role: string) =>
    direct.includes(role) || groups.some((group) => group.roles?.includes(role) === true);
  if (holds(roles.operatorRole)) return { role: 'operator', tenants: [] };
  const managesDirectly = direct.includes(roles.managerRole);
  const tenants = groups
    .filter((group) => (group.roles === null ? managesDirectly : group.roles.includes(roles.managerRole)))
    .map((group) => group.groupId)
    .filter((groupId) => knownTenants.has(groupId));
  return tenants.length > 0 ? { role: 'manager', tenants: [...new Set(tenants)].sort() } : null;
}
