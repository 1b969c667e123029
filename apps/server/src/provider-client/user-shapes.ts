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
  return {
    sub,
    ...(email ? { email: normaliseEmail(email) } : {}),
    ...(status ? { status } : {}),
    ...(verified === undefined ? {} : { emailVerified: verified }),
    ...(identityId ? { identityId } : {}),
    ...(identityProvider ? { identityProvider } : {}),
  };
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
