import { normaliseEmail } from '@concierge/contracts';
import { USER_NOT_FOUND } from './cidaas-codes';
import type { ProviderHttp } from './provider-http';
import { answer, isRefusedWith, type ProviderResult, unknown } from './provider-result';
import { type ProviderUser, type ProviderUserStatus, userOf, usersOf } from './user-shapes';

export type { ProviderUser, ProviderUserStatus } from './user-shapes';

interface ExistenceData {
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

/**
 * The user with this e-mail, or null: the recorded user-existence check, and — because no recorded
 * answer shows whether it carries the sub — the user search when it does not.
 */
export async function findUserByEmail(
  http: ProviderHttp,
  email: string,
): Promise<ProviderResult<ProviderUser | null>> {
  const existence = await http.admin<ExistenceData>({
    method: 'POST',
    path: '/useractions-srv/userexistence',
    body: { email },
    operation: 'user_existence',
    isIdempotent: true,
  });
  if (isNotFound(existence)) return answer(null);
  if (existence.kind !== 'answer') return existence;
  if (existence.data?.exist === false) return answer(null);
  // Whether a known user's answer carries the sub is not recorded: read it when it does.
  const user = userOf(existence.data);
  if (user) return answer({ ...user, email: user.email ?? normaliseEmail(email) });
  return searchUserByEmail(http, email);
}

/**
 * cidaas's documented user search (`POST /user-srv/graph/users`, scope `cidaas:users_search` or
 * `cidaas:users_read`), filtered by e-mail in its legacy filter form, which cidaas documents as still
 * accepted, and projected on the index fields it documents. The answer is read wherever its list
 * sits (usersOf); only a user with exactly this e-mail counts.
 */
async function searchUserByEmail(http: ProviderHttp, email: string): Promise<ProviderResult<ProviderUser>> {
  const wanted = normaliseEmail(email);
  const search = await http.admin<unknown>({
    method: 'POST',
    path: '/user-srv/graph/users',
    body: {
      fieldsFilter: [{ field: 'email', value: [wanted] }],
      fields: 'sub userStatus system.email system.email_verified',
      from: 0,
      size: 10,
      excludeUserCount: true,
    },
    operation: 'user_search',
    isIdempotent: true,
  });
  if (search.kind !== 'answer') return search;
  const user = usersOf(search.data).find((candidate) => candidate.email === wanted);
  // The existence check said yes: a search that finds nobody leaves the question open.
  return user ? answer(user) : unknown('the user exists, but the search did not find it');
}

/**
 * The user with this sub (e-mail, status, e-mail verified), or null: cidaas's internal profile call
 * (Android SDK URLHelper, inheaden/cidaasutils), whose answer is nested (user-shapes.ts).
 */
export async function findUserBySub(
  http: ProviderHttp,
  sub: string,
): Promise<ProviderResult<ProviderUser | null>> {
  const result = await http.admin<unknown>({
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
 * cidaas documents the admin update `PUT /user-srv/users/{sub}` (scopes `cidaas:userupdate`,
 * `cidaas:users_write`), which names the identity by its id and provider; where a tenant refuses the
 * admin client there (401, 403) or has no such call (404, 405), the older `PUT /users-srv/user/{sub}`
 * that other admin clients use (inheaden/cidaasutils UpdateUserProfileInternally) is asked instead.
 * Retried after no answer: it sets one field to true, which a second request cannot change further.
 */
export async function markEmailVerified(
  http: ProviderHttp,
  user: ProviderUser,
): Promise<ProviderResult<unknown>> {
  const sub = encodeURIComponent(user.sub);
  const identity = {
    provider: user.identityProvider ?? 'self',
    ...(user.identityId ? { identityId: user.identityId } : {}),
  };
  const updated = await http.admin({
    method: 'PUT',
    path: `/user-srv/users/${sub}`,
    body: { userData: { ...identity, email_verified: true } },
    operation: 'mark_email_verified',
    isIdempotent: true,
  });
  if (updated.kind !== 'refusal' || ![401, 403, 404, 405].includes(updated.status)) return updated;
  return http.admin({
    method: 'PUT',
    path: `/users-srv/user/${sub}`,
    body: { ...identity, email_verified: true },
    operation: 'mark_email_verified_legacy',
    isIdempotent: true,
  });
}

/**
 * Lifts cidaas's brute-force block (`POST /fraud-detection-srv/unblock`, scope
 * `cidaas:fds_settings_write`): 200 when the sub was blocked, 204 when nothing was. The status call
 * cannot leave BLOCKED (cidaas-facts.md), so this is the only documented way out of it. Retried after
 * no answer: unblocking twice leaves the user as once does.
 */
export function unblockUser(http: ProviderHttp, sub: string): Promise<ProviderResult<unknown>> {
  return http.admin({
    method: 'POST',
    path: '/fraud-detection-srv/unblock',
    body: { sub },
    operation: 'unblock',
    isIdempotent: true,
  });
}
