import { setTimeout as sleep } from 'node:timers/promises';
import { userOf } from '../provider-client/user-shapes';
import type { CidaasDoubleVariants } from './cidaas-double/cidaas-double';

// What the conformance suite finds out about a provider where cidaas leaves the answer open (the
// double's CidaasDoubleVariants): read from the provider's own answers to the admin calls and its
// webhooks. Against the double the findings must equal its variants; against a real tenant they are
// written for `npm test`'s closing output (conformance-targets.ts, REAL_CIDAAS_VARIANTS_FILE).

/** The variants of the double that a provider's answers reveal. */
export const REVEALED_VARIANTS = [
  'userNotFound',
  'existenceCarriesSub',
  'profileShape',
  'searchAnswer',
  'adminUpdate',
  'fraudDetection',
  'webhookBody',
  'webhookKeyPlacement',
] as const satisfies readonly (keyof CidaasDoubleVariants)[];
export type RevealedVariant = (typeof REVEALED_VARIANTS)[number];

/** What the suite found: each variant's value as text (`String()` of the double's value), and other observations. */
export interface Findings {
  variants: Partial<Record<RevealedVariant, string>>;
  observed: Record<string, string>;
}

export interface AdminAnswer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the probes read whatever JSON came back
  json: any;
}
/** A call of the provider's admin API with its client-credentials token, raw: status and JSON. */
export type AdminCall = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
) => Promise<AdminAnswer>;

/** The admin API called directly (`POST /token-srv/token`, client credentials, as the provider client asks). */
export function adminCaller(
  baseUrl: string,
  credentials: { clientId: string; clientSecret: string },
): AdminCall {
  let token: Promise<string> | undefined;
  const fetchToken = async () => {
    const response = await fetch(new URL('/token-srv/token', baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
      }),
      signal: AbortSignal.timeout(15_000),
    });
    const json = (await response.json().catch(() => ({}))) as { access_token?: unknown };
    if (typeof json.access_token !== 'string') throw new Error(`no admin token (HTTP ${response.status})`);
    return json.access_token;
  };
  return async (method, path, body) => {
    token ??= fetchToken().catch((error: unknown) => {
      token = undefined;
      throw error;
    });
    const response = await fetch(new URL(path, baseUrl), {
      method,
      redirect: 'manual',
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${await token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, json };
  };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/** A 2xx that is no envelope saying `success:false` (some cidaas services answer so). */
const isSuccess = (answer: AdminAnswer) =>
  answer.status >= 200 && answer.status < 300 && answer.json?.success !== false;
const other = (answer: AdminAnswer, what = '') => `other (HTTP ${answer.status}${what ? `, ${what}` : ''})`;
const keysOf = (value: unknown) => (isObject(value) ? Object.keys(value).sort().join(' ') : typeof value);

/**
 * The admin calls' variants, asked for a fresh user of the suite's (`user`) and an e-mail nobody has.
 * It marks the user's e-mail verified (the admin update is the probe of adminUpdate) and asks the
 * unblock for it (nothing is blocked: 204 where there is fraud detection).
 */
export async function probeAdminVariants(
  admin: AdminCall,
  user: { sub: string; email: string },
  unknownEmail: string,
): Promise<Findings> {
  const variants: Findings['variants'] = {};
  const observed: Findings['observed'] = {};
  const sub = encodeURIComponent(user.sub);

  const nobody = await admin('POST', '/useractions-srv/userexistence', { email: unknownEmail });
  variants.userNotFound = ['204', '417', '404'].includes(String(nobody.status))
    ? String(nobody.status)
    : other(nobody, `data ${keysOf(nobody.json?.data)}`);
  if (nobody.json?.error?.code !== undefined) observed.userNotFoundCode = String(nobody.json.error.code);

  const known = await admin('POST', '/useractions-srv/userexistence', { email: user.email });
  variants.existenceCarriesSub = isSuccess(known)
    ? String(typeof known.json?.data?.sub === 'string')
    : other(known);
  if (isSuccess(known)) observed.existenceFields = keysOf(known.json?.data);

  const profile = await admin('GET', `/users-srv/internal/userinfo/profile/${sub}`);
  const data = profile.json?.data;
  variants.profileShape = !isSuccess(profile)
    ? other(profile)
    : isObject(data?.userAccount) || isObject(data?.identity)
      ? 'nested'
      : typeof data?.sub === 'string'
        ? 'flat'
        : other(profile, `data ${keysOf(data)}`);

  const search = await searchAnswerOf(admin, user.email);
  if (search.startsWith('no match')) observed.searchAnswer = search;
  else variants.searchAnswer = search;

  // As the provider client marks an e-mail verified (users.ts markEmailVerified).
  const found = isSuccess(profile) ? userOf(data) : undefined;
  const identity = {
    provider: found?.identityProvider ?? 'self',
    ...(found?.identityId ? { identityId: found.identityId } : {}),
  };
  const update = await admin('PUT', `/user-srv/users/${sub}`, {
    userData: { ...identity, email_verified: true },
  });
  if (isSuccess(update)) variants.adminUpdate = 'user-srv';
  else if ([401, 403, 404, 405].includes(update.status)) {
    const legacy = await admin('PUT', `/users-srv/user/${sub}`, { ...identity, email_verified: true });
    variants.adminUpdate = isSuccess(legacy)
      ? 'legacy-only'
      : `neither (user-srv HTTP ${update.status}, legacy HTTP ${legacy.status})`;
  } else variants.adminUpdate = other(update, 'user-srv');

  // 200 unblocked, 204 nothing blocked (documented); any refusal: no unblock for this client.
  const unblock = await admin('POST', '/fraud-detection-srv/unblock', { sub: user.sub });
  variants.fraudDetection = String(isSuccess(unblock));
  observed.fraudDetectionAnswer = `HTTP ${unblock.status}`;
  return { variants, observed };
}

/**
 * Where the graph search puts its list (variant searchAnswer), asked as the provider client asks
 * (users.ts searchUserByEmail). A fresh user may not be in the search index yet (204, no match): asked
 * again for up to 10 s, then left open.
 */
async function searchAnswerOf(admin: AdminCall, email: string): Promise<string> {
  const body = {
    fieldsFilter: [{ field: 'email', value: [email] }],
    fields: 'sub userStatus system.email system.email_verified',
    from: 0,
    size: 10,
    excludeUserCount: true,
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    const search = await admin('POST', '/user-srv/graph/users', body);
    if (search.status !== 204) {
      const data = search.json?.data;
      if (!isSuccess(search)) return other(search);
      if (Array.isArray(data)) return 'data';
      if (Array.isArray(data?.users)) return 'data.users';
      if (Array.isArray(data?.data)) return 'data.data';
      return other(search, `data ${keysOf(data)}`);
    }
    if (Date.now() > deadline) return 'no match (204) within 10 s: the user was not in the index yet';
    await sleep(1000);
  }
}

/** The variant webhookBody of a delivery: an `id` (the embedded provider's), else cidaas's documented envelope. */
export function webhookBodyOf(body: Record<string, unknown>): string {
  if (typeof body.id === 'string') return 'with-id';
  if ('createTime' in body) return 'documented';
  return `other (fields ${keysOf(body)})`;
}
