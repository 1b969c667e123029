// Thin calls to the identity provider (cidaas or the embedded one). No React in here.

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
