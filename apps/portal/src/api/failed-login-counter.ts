/**
 * spec §7: GET {restApiBaseUrl}/user-login-failed-counter?subdomain&email → [{counter}].
 * null when the count cannot be had: the login page then shows the plain wrong-password message.
 */
export async function fetchFailedLoginCounter(
  restApiBaseUrl: string,
  subdomain: string,
  email: string,
  /** The count before the attempt: the server waits a moment for the attempt's event. */
  after?: number,
): Promise<number | null> {
  try {
    const query = new URLSearchParams({ subdomain, email });
    if (after !== undefined) query.set('after', String(after));
    const response = await fetch(`${restApiBaseUrl}/user-login-failed-counter?${query}`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) return null;
    const body = (await response.json()) as unknown;
    const counter = Array.isArray(body) ? (body[0] as { counter?: unknown } | undefined)?.counter : undefined;
    return typeof counter === 'number' && Number.isFinite(counter) ? counter : null;
  } catch {
    return null;
  }
}
