import type { ProviderClient, ProviderResult } from './provider-client';

export type ProviderUserStatus = 'PENDING' | 'VERIFIED' | 'DECLINED';

/** Admin look-up by e-mail: `POST /useractions-srv/userexistence` (cidaas code 10301 = not found). */
export async function findProviderUser(
  client: ProviderClient,
  email: string,
): Promise<{ exists: true; sub: string; status?: ProviderUserStatus } | { exists: false }> {
  const result = await client.call<{ sub?: string; userStatus?: ProviderUserStatus }>(
    'POST',
    '/useractions-srv/userexistence',
    { email },
  );
  if (result.ok && typeof result.data?.sub === 'string') {
    return { exists: true, sub: result.data.sub, status: result.data.userStatus };
  }
  if (!result.ok && (result.status === 404 || String(result.code) === '10301')) return { exists: false };
  throw new Error(`user look-up failed: ${describe(result)}`);
}

/** `PATCH /user-srv/users/{sub}/status`: VERIFIED activates and unlocks, DECLINED locks. */
export async function setProviderUserStatus(
  client: ProviderClient,
  sub: string,
  status: ProviderUserStatus,
): Promise<ProviderResult<unknown>> {
  return client.call('PATCH', `/user-srv/users/${encodeURIComponent(sub)}/status`, { status });
}

export function describe(result: ProviderResult<unknown>): string {
  return result.ok
    ? `HTTP ${result.status}`
    : `HTTP ${result.status} ${result.code ?? ''} ${result.message ?? ''}`.trim();
}
