// Thin calls to the portal's own server (spec §7: POST /api/cidaas-webhook/{name}, JSON). No React here.
import {
  PORTAL_API_PREFIX,
  PORTAL_CALLS,
  type PortalCallAnswer,
  type PortalCallBody,
  type PortalCallName,
} from '@concierge/contracts';

/**
 * What every call answers; the caller must look at `ok`. `code` is the server's error code (read
 * from the envelope's `error.code`), undefined when there was none: a network error, a timeout or
 * an answer that could not be read. `status` is 0 when no HTTP answer arrived. `retryAfterSeconds`
 * is the answer's `Retry-After` (every 429 of the server has it: how long its limit holds), for the
 * message's "in N minutes".
 */
export type PortalApiResult<T> =
  | { ok: true; data: T }
  | { ok: false; code: string | undefined; status: number; retryAfterSeconds?: number };

const TIMEOUT_MS = 15_000;

/**
 * spec §7: one call, as contracts' PORTAL_CALLS defines it: its path, its body and how its answer is
 * read (a 2xx whose data is not what the call promises counts as failed: "an unreadable answer", §4).
 */
export async function callPortal<N extends PortalCallName>(
  name: N,
  body: PortalCallBody<N>,
): Promise<PortalApiResult<PortalCallAnswer<N>>> {
  let response: Response;
  try {
    response = await fetch(`${PORTAL_API_PREFIX}/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    return { ok: false, code: undefined, status: 0 };
  }
  const envelope: unknown = await response.json().catch(() => undefined);
  const record = isRecord(envelope) ? envelope : undefined;
  if (response.ok && record?.success === true) {
    // The entry of `name`: TypeScript does not follow an index by a type parameter to its entry.
    const readAnswer = PORTAL_CALLS[name].readAnswer as (data: unknown) => PortalCallAnswer<N> | undefined;
    const data = readAnswer(record.data);
    if (data !== undefined) return { ok: true, data };
  }
  const retryAfterSeconds = retryAfterOf(response.headers.get('retry-after'));
  return {
    ok: false,
    code: errorCode(record),
    status: response.status,
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  };
}

/**
 * `Retry-After` in seconds: delay-seconds, or an HTTP date (RFC 9110 §10.2.3) counted from now;
 * undefined when absent or unreadable.
 */
export function retryAfterOf(header: string | null, now = Date.now()): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  // An HTTP date names its day and month ("Tue, 01 Jan 2030 10:05:00 GMT"); "-5" is no date.
  const date = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/** The envelope's error code: `{error: {code}}`, cidaas' `{error: "code"}`, or a bare `{code}`. */
function errorCode(body: Record<string, unknown> | undefined): string | undefined {
  if (!body || body.success === true) return undefined;
  const { error } = body;
  const code = isRecord(error) ? error.code : typeof error === 'string' ? error : body.code;
  return typeof code === 'string' || typeof code === 'number' ? String(code) : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
