import type { ProviderHttp } from './provider-http';
import { answer, type ProviderResult, unknown } from './provider-result';

export interface ResetInitiation {
  requestId: string;
  email: string;
  /** The asker's Accept-Language, for the e-mail of an account without a language (embedded provider). */
  acceptLanguage?: string;
}

/** The provider takes at most this much of Accept-Language. */
const ACCEPT_LANGUAGE_MAX = 200;

/** `POST /users-srv/resetpassword/initiate` (LINK by e-mail) → the reset request id (`rprq`). */
export async function initiateReset(
  http: ProviderHttp,
  reset: ResetInitiation,
): Promise<ProviderResult<string>> {
  const result = await http.admin<{ rprq?: unknown }>({
    method: 'POST',
    path: '/users-srv/resetpassword/initiate',
    // Never retried: each request e-mails a new link and voids the one before.
    operation: 'reset_initiate',
    body: {
      requestId: reset.requestId,
      email: reset.email,
      processingType: 'LINK',
      resetMedium: 'email',
      ...(reset.acceptLanguage ? { acceptLanguage: reset.acceptLanguage.slice(0, ACCEPT_LANGUAGE_MAX) } : {}),
    },
  });
  if (result.kind !== 'answer') return result;
  const rprq = result.data?.rprq;
  return typeof rprq === 'string' && rprq !== ''
    ? answer(rprq)
    : unknown('initiate answered without an rprq');
}

export interface ResetAcceptance {
  resetRequestId: string;
  exchangeId: string;
  password: string;
  confirmPassword: string;
}

/**
 * `POST /users-srv/resetpassword/accept` → `{reseted: true}`. A redirect or an HTML page (newer
 * cidaas answers the form variant so) is an unknown outcome: the password may have changed.
 */
export async function acceptReset(http: ProviderHttp, reset: ResetAcceptance): Promise<ProviderResult<true>> {
  const result = await http.admin<{ reseted?: unknown }>({
    method: 'POST',
    path: '/users-srv/resetpassword/accept',
    body: reset,
    // Never retried: the link is spent by the first request; a second is refused (10002) and would
    // turn a success whose answer was lost into a "link invalid".
    operation: 'reset_accept',
  });
  if (result.kind !== 'answer') return result;
  return result.data?.reseted === true ? answer(true) : unknown('accept answered without reseted');
}
