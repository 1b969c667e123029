import { normaliseEmail } from '@concierge/contracts';

/** cidaas's user statuses (cidaas-facts.md, "Users"); PENDING only where a provider still uses it. */
export type ProviderUserStatus = 'VERIFIED' | 'DECLINED' | 'BLOCKED' | 'PENDING';

export interface ProviderUser {
  sub: string;
  email?: string;
  /** Undefined when the answer did not say. */
  status?: string;
  emailVerified?: boolean;
  /** The identity's id and provider: what cidaas's admin update names the identity by. */
  identityId?: string;
  identityProvider?: string;
  /** The user's roles (the profile's `roles[]`); undefined when the answer did not say. */
  roles?: string[];
  /** The user's groups and their roles in each; `roles` null when the answer names the group alone. */
  groups?: ProviderGroup[];
}

export interface ProviderGroup {
  groupId: string;
  roles: string[] | null;
}

type Fields = Record<string, unknown>;

const objectOf = (value: unknown): Fields | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : undefined;
const textOf = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/**
 * A user as any answer shows it: cidaas's documented nested profile (`userAccount { sub, userStatus }`,
 * `identity { _id, sub, email, email_verified, provider }`, Android SDK UseprofileResponseDataEntity),
 * the graph search's index fields (`sub`, `userStatus`, `system.email`), or a flat one (`sub`,
 * `email`, `userStatus`, `email_verified`) as older calls and the embedded provider have it. Each
 * field is taken from wherever it is; undefined without a sub.
 */
export function userOf(data: unknown): ProviderUser | undefined {
  const flat = objectOf(data);
  if (!flat) return undefined;
  const account = objectOf(flat.userAccount) ?? {};
  const identity =
    objectOf(flat.identity) ??
    objectOf(Array.isArray(flat.identities) ? flat.identities[0] : undefined) ??
    {};
  const system = objectOf(flat.system) ?? {};
  const sub = textOf(account.sub) ?? textOf(flat.sub) ?? textOf(identity.sub);
  if (!sub) return undefined;
  const email = textOf(identity.email) ?? textOf(flat.email) ?? textOf(system.email);
  const status = textOf(account.userStatus) ?? textOf(flat.userStatus) ?? textOf(flat.status);
  const verified = [identity.email_verified, flat.email_verified, system.email_verified].find(
    (value) => typeof value === 'boolean',
  ) as boolean | undefined;
  const identityId = textOf(identity._id) ?? textOf(identity.id) ?? textOf(identity.identityId);
  const identityProvider = textOf(identity.provider);
  const roles = textsOf(flat.roles);
  const groups = groupsOf(flat.groups);
  return {
    sub,
    ...(email ? { email: normaliseEmail(email) } : {}),
    ...(status ? { status } : {}),
    ...(verified === undefined ? {} : { emailVerified: verified }),
    ...(identityId ? { identityId } : {}),
    ...(identityProvider ? { identityProvider } : {}),
    ...(roles ? { roles } : {}),
    ...(groups ? { groups } : {}),
  };
}

const textsOf = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined;

/**
 * The profile's `groups[]`: ids alone, as the Android SDK's profile entity reads them (`String[]`),
 * or `{ groupId, roles[] }`, as its userinfo entity does (`UserInfo/Group.java`). cidaas documents
 * both and records neither, so both are read.
 */
function groupsOf(value: unknown): ProviderGroup[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.flatMap((entry): ProviderGroup[] => {
    if (typeof entry === 'string' && entry !== '') return [{ groupId: entry, roles: null }];
    const group = objectOf(entry);
    const groupId = textOf(group?.groupId);
    return groupId ? [{ groupId, roles: textsOf(group?.roles) ?? null }] : [];
  });
}

/**
 * The users of a search answer, wherever the list sits: `data` itself, or `data.users`, `data.data`,
 * `data.items`, `data.hits` (cidaas documents "an array of users", not where it sits).
 */
export function usersOf(data: unknown): ProviderUser[] {
  const container = objectOf(data);
  const list = Array.isArray(data)
    ? data
    : [container?.users, container?.data, container?.items, container?.hits].find(Array.isArray);
  return (list ?? [])
    .map((entry) => userOf(objectOf(entry)?._source ?? entry))
    .filter((user) => user !== undefined);
}
