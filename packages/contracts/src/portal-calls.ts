// spec §7: the portal's calls to its own server, one entry each. Zod-free, so the browser can read
// it: the body schemas, which only the server runs, are keyed by the same names in portal-api.ts.
import {
  NEW_INVITATION_REQUEST_ERROR_CODES,
  PASSWORD_RESET_INIT_ERROR_CODES,
  PASSWORD_RESET_SET_ERROR_CODES,
  PROVIDER_UNREACHABLE,
  REGISTRATION_ERROR_CODES,
  RESEND_ACTIVATION_ERROR_CODES,
  SERVICE_UNAVAILABLE,
  VERIFICATION_ERROR_CODES,
} from './portal-api-codes';

/** ours: a form posted without a valid token (another site's, or one whose cookie has gone). */
export const FORM_EXPIRED = 'form_expired';

/**
 * What any call may answer besides its own codes: the provider or the database is away, or the
 * form's token did not hold. Each has one message on every page.
 */
export const TEMPORARY_FAILURE_CODES = [PROVIDER_UNREACHABLE, SERVICE_UNAVAILABLE, FORM_EXPIRED] as const;
export type TemporaryFailureCode = (typeof TEMPORARY_FAILURE_CODES)[number];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** For calls whose answer carries nothing the portal needs beyond `success`. */
const nothingMore = (data: unknown): object => (isRecord(data) ? data : {});

/**
 * One definition per call: its path under PORTAL_API_PREFIX (the key), the error codes it may
 * answer — each with a message on its page (spec §8; the portal's typecheck fails for a code
 * without one) — and how the portal reads its answer's `data` (undefined: not what the call
 * promises, which counts as failed). From it derive the server's route, its answer type and the
 * codes it may throw for the call (routes/portal-calls.ts, http/errors.ts), and the portal's call
 * and messages (api/portal-api.ts, api/error-keys.ts).
 */
export const PORTAL_CALLS = {
  'register-user': { codes: REGISTRATION_ERROR_CODES, readAnswer: nothingMore },
  'activate-user-account': {
    codes: VERIFICATION_ERROR_CODES,
    readAnswer: (data: unknown) =>
      isRecord(data) && typeof data.isAlreadyActivated === 'boolean'
        ? { isAlreadyActivated: data.isAlreadyActivated }
        : undefined,
  },
  // spec §7: one answer for every e-mail; only a malformed address is refused.
  'resend-account-activation-email': { codes: RESEND_ACTIVATION_ERROR_CODES, readAnswer: nothingMore },
  'password-reset-initiate': { codes: PASSWORD_RESET_INIT_ERROR_CODES, readAnswer: nothingMore },
  // ours (issue 30): the invitee of a withdrawn or expired invitation asks the property manager for
  // a new one; one answer for every link, so that it tells nothing about any invitation.
  'request-new-invitation': { codes: NEW_INVITATION_REQUEST_ERROR_CODES, readAnswer: nothingMore },
  // A success without redirect_uri still saved the password: the page then shows its own success.
  'password-reset-set-new': {
    codes: PASSWORD_RESET_SET_ERROR_CODES,
    readAnswer: (data: unknown) => ({
      redirect_uri: isRecord(data) && typeof data.redirect_uri === 'string' ? data.redirect_uri : undefined,
    }),
  },
} as const satisfies Record<
  string,
  { codes: readonly string[]; readAnswer: (data: unknown) => object | undefined }
>;

export type PortalCallName = keyof typeof PORTAL_CALLS;

/** What a call's answer holds, as the portal reads it (and the server must give). */
export type PortalCallAnswer<N extends PortalCallName> = NonNullable<
  ReturnType<(typeof PORTAL_CALLS)[N]['readAnswer']>
>;

/**
 * spec §8: every page has a general message (`….error.default`), for a refusal nothing more
 * specific can be said of (the provider refused without saying why).
 */
export const GENERAL_FAILURE_CODE = 'default';

/** The codes a call may answer: its own, the temporary failures and the general one. */
export type PortalCallCode<N extends PortalCallName> =
  | (typeof PORTAL_CALLS)[N]['codes'][number]
  | TemporaryFailureCode
  | typeof GENERAL_FAILURE_CODE;

/** Every code some portal call may answer. */
export type PortalErrorCode = PortalCallCode<PortalCallName>;
