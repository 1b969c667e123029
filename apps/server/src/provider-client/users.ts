import { normaliseEmail } from '@concierge/contracts';
import { USER_NOT_FOUND } from './cidaas-codes';
import type { ProviderHttp } from './provider-http';
import { answer, isRefusedWith, type ProviderResult, unknown } from './provider-result';

/** cidaas's user statuses (cidaas-facts.md, "Users"); PENDING only where a provider still uses it. */
export type ProviderUserStatus = 'VERIFIED' | 'DECLINED' | 'BLOCKED' | 'PENDING';

export interface ProviderUser {
  sub: string;
  email?: string;
  /** Undefined when the answer did not say. */
  status?: string;
  emailVerified?: boolean;
}

interface UserData {
  sub?: unknown;
  email?: unknown;
  userStatus?: unknown;
  email_verified?: unknown;
  exist?: unknown;
}

/**
 * "No such user", however the provider says it: 204, 404, or code 10301 (cidaas documents 204 and
 * 417 + 10301; it has never been seen to answer 404, other providers do).
 */
function isNotFound(result: ProviderResult<unknown>): boolean {
  if (result.kind === 'answer') return result.status === 204 || result.data === undefined;
  return result.kind === 'refusal' && (result.status === 404 || isRefusedWith(result, USER_NOT_FOUND));
}

function userOf(data: UserData | undefined): ProviderUser | undefined {
  if (typeof data?.sub !== 'string' || data.sub === '') return undefined;
  return {
    sub: data.sub,
    email: typeof data.email === 'string' ? normaliseEmail(data.email) : undefined,
    status: typeof data.userStatus === 'string' ? data.userStatus : undefined,
    emailVerified: typeof data.email_verified === 'boolean' ? data.email_verified : undefined,
  };
}

/**
 * The user with this e-mail, or null: the recorded user-existence check, and — because no recorded
 * answer shows whether it carries the sub — the user search when it does not.
 */
export async function findUserByEmail(
  http: ProviderHttp,
  email: string,
): Promise<ProviderResult<ProviderUser | null>> {
  const existence = await http.admin<UserData>({
    method: 'POST',
    path: '/useractions-srv/userexistence',
    body: { email },
    operation: 'user_existence',
    isIdempotent: true,
  });
  if (isNotFound(existence)) return answer(null);
  if (existence.kind !== 'answer') return existence;
  if (existence.data?.exist === false) return answer(null);
  const user = userOf(existence.data);
  if (user) return answer({ ...user, email: user.email ?? normaliseEmail(email) });
  return searchUserByEmail(http, email);
}

async function searchUserByEmail(http: ProviderHttp, email: string): Promise<ProviderResult<ProviderUser>> {
  const search = await http.admin<UserData[]>({
    method: 'POST',
    path: '/users-srv/user/search',
    body: { email },
    operation: 'user_search',
    isIdempotent: true,
  });
  if (search.kind !== 'answer') return search;
  const wanted = normaliseEmail(email);
  const user = (Array.isArray(search.data) ? search.data : [])
    .map(userOf)
    .find((candidate) => candidate?.email === wanted);
  // The existence check said yes: a search that finds nobody leaves the question open.
  return user ? answer(user) : unknown('the user exists, but the search did not find it');
}

/** The user with this sub (e-mail, status, e-mail verified), or null. */
export async function findUserBySub(
  http: ProviderHttp,
  sub: string,
): Promise<ProviderResult<ProviderUser | null>> {
  const result = await http.admin<UserData>({
    method: 'GET',
    path: `/users-srv/internal/userinfo/profile/${encodeURIComponent(sub)}`,
    operation: 'user_by_sub',
  });
  if (isNotFound(result)) return answer(null);
  if (result.kind !== 'answer') return result;
  return answer(userOf(result.data) ?? null);
}

/**
 * `PATCH /user-srv/users/{sub}/status`. Retried after no answer: it sets a status, it does not
 * toggle one, so a second request leaves the user as the first did. If the first took effect, the
 * second is refused (the same status again is a 400 at cidaas), and the caller reads the user again
 * after a refusal (account-state.ts changeStatus).
 */
export function setUserStatus(
  http: ProviderHttp,
  sub: string,
  status: ProviderUserStatus,
): Promise<ProviderResult<unknown>> {
  return http.admin({
    method: 'PATCH',
    path: `/user-srv/users/${encodeURIComponent(sub)}/status`,
    body: { status },
    operation: 'set_status',
    isIdempotent: true,
  });
}

/**
 * Marks the e-mail verified: cidaas's activation of a self-registered user (never VERIFIED again).
 * Retried after no answer: it sets one field to true, which a second request cannot change further.
 */
export function markEmailVerified(http: ProviderHttp, sub: string): Promise<ProviderResult<unknown>> {
  return http.admin({
    method: 'PUT',
    path: `/users-srv/user/profile/${encodeURIComponent(sub)}`,
    body: { email_verified: true },
    operation: 'mark_email_verified',
    isIdempotent: true,
  });
}
