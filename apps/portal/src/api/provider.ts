// Thin calls to the identity provider (cidaas or the embedded one). No React in here.
import { type ClientInfo, readClientInfo, readTenantInfo, type TenantInfo } from '@concierge/contracts';

export type { ClientInfo, TenantInfo };

export type UserExistence =
  | { kind: 'known' }
  | { kind: 'unknown' }
  /** The provider sends the visitor elsewhere (cidaas: webfinger / federated login). */
  | { kind: 'redirect'; url: string }
  | { kind: 'failed' };

const TIMEOUT_MS = 10_000;

/** spec §7: POST userexistence/{requestId}; the answer may be false, a redirect, an error or data. */
export async function checkUserExistence(
  baseUrl: string,
  requestId: string,
  email: string,
): Promise<UserExistence> {
  try {
    const response = await fetch(
      `${baseUrl}/useractions-srv/userexistence/${encodeURIComponent(requestId)}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ email, requestId }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      },
    );
    // "No such user" as cidaas and others say it: 204, 404, or code 10301 (provider-protocol.md).
    if (response.status === 204 || response.status === 404) return { kind: 'unknown' };
    const body = (await response.json().catch(() => null)) as Record<string, unknown> | false | null;
    if (body === false) return { kind: 'unknown' };
    if (!body || typeof body !== 'object') return { kind: 'failed' };
    if (body.redirected === true && typeof body.url === 'string') return onProviderOrigin(baseUrl, body.url);
    if (body.success === true && body.data) return { kind: 'known' };
    if (body.success === false) return { kind: 'unknown' };
    return { kind: 'failed' };
  } catch {
    return { kind: 'failed' };
  }
}

// A redirect is followed only onto the provider's own origin, never to a host the answer names.
function onProviderOrigin(baseUrl: string, url: string): UserExistence {
  try {
    const target = new URL(url, baseUrl);
    return target.origin === new URL(baseUrl).origin
      ? { kind: 'redirect', url: target.href }
      : { kind: 'failed' };
  } catch {
    return { kind: 'failed' };
  }
}

async function providerJson(url: string, init?: RequestInit): Promise<Record<string, unknown> | null> {
  try {
    const response = await fetch(url, {
      ...init,
      credentials: 'include',
      headers: { accept: 'application/json', ...init?.headers },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    return body && typeof body === 'object' ? body : null;
  } catch {
    return null;
  }
}

/** spec §7: GET /public-srv/public/{requestId}; null when the request id is unknown or expired. */
export async function fetchClientInfo(baseUrl: string, requestId: string): Promise<ClientInfo | null> {
  const body = await providerJson(`${baseUrl}/public-srv/public/${encodeURIComponent(requestId)}`);
  return body?.success === true ? readClientInfo(body.data) : null;
}

export interface FreshRequestParams {
  client_id: string;
  redirect_uri: string;
}

/** A fresh request id from the provider (provider-protocol.md: authz/generate); null when none can be had. */
export async function generateRequestId(baseUrl: string, params: FreshRequestParams): Promise<string | null> {
  const nonce = Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('');
  const body = await providerJson(`${baseUrl}/authz-srv/authrequest/authz/generate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...params, response_type: 'code', scope: 'email openid profile mobile', nonce }),
  });
  const requestId =
    body?.success === true ? (body.data as { requestId?: unknown } | undefined)?.requestId : undefined;
  return typeof requestId === 'string' && requestId.length > 0 ? requestId : null;
}

/** spec §3 and §7: tenant info, read once per tab and cached; the provider's own description of itself. */
export async function fetchTenantInfo(baseUrl: string): Promise<TenantInfo | null> {
  const body = await providerJson(`${baseUrl}/public-srv/tenantinfo/basic`);
  return body?.success === true ? readTenantInfo(body.data) : null;
}
