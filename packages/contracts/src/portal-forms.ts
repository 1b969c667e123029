// The portal's forms, once for both sides (issue 25): every form works with the page's script (it
// reads the form and makes the JSON call of spec §7) and without it (the browser posts the form to
// its page, and the server makes the same call). Both read the same inputs by name, check them with
// the same rules and build the same call body here. No zod: the browser imports this.
import { isEmailAddress, normaliseEmail } from './email';
import { isStrongPassword } from './password';
import type { PortalCallBody } from './portal-api';
import { normaliseRegistrationCode } from './portal-api-codes';
import type { PortalCallName } from './portal-calls';

/** spec §5: what a field's check can say, each a message under `register.error.` in the portal. */
export const FIELD_CODES = [
  'emailAddressRequired',
  'emailAddressInvalid',
  'newPasswordRequired',
  'newPasswordInvalid',
  'newPasswordConfirmationRequired',
  'newPasswordConfirmationNoMatch',
  'registrationCodeRequired',
  'registrationCodeInvalidFormat',
  'termsOfServicesNotAccepted',
] as const;
export type FieldCode = (typeof FIELD_CODES)[number];

/** A form's inputs by name: the value sent, '' for an input that was not (an unticked checkbox). */
export type FormValue = (name: string) => string;

/** What a ticked checkbox sends: the browser's default value. */
export const CHECKED = 'on';

export const fieldChecks = {
  email(value: string): FieldCode | undefined {
    if (!value.trim()) return 'emailAddressRequired';
    return isEmailAddress(value.trim()) ? undefined : 'emailAddressInvalid';
  },
  newPassword(value: string): FieldCode | undefined {
    if (!value) return 'newPasswordRequired';
    return isStrongPassword(value) ? undefined : 'newPasswordInvalid';
  },
  confirmation(password: string, confirmation: string): FieldCode | undefined {
    if (!confirmation) return 'newPasswordConfirmationRequired';
    return password === confirmation ? undefined : 'newPasswordConfirmationNoMatch';
  },
  registrationCode(value: string): FieldCode | undefined {
    if (!value.trim()) return 'registrationCodeRequired';
    return normaliseRegistrationCode(value) ? undefined : 'registrationCodeInvalidFormat';
  },
  termsAccepted(value: string): FieldCode | undefined {
    return value === CHECKED ? undefined : 'termsOfServicesNotAccepted';
  },
};

/** The input names the forms share (a password manager knows `new-password`). */
export const FIELD = {
  email: 'email',
  newPassword: 'new-password',
  confirmation: 'new-password-confirmation',
  registrationCode: 'registrationcode',
  terms: 'terms',
} as const;

export interface PortalForm<N extends PortalCallName = PortalCallName> {
  /** The page the form is on, and where it posts without JavaScript (spec §2). */
  page: string;
  call: N;
  /** The checked inputs in the form's order (the error summary lists them so), by name. */
  checks: Readonly<Record<string, (value: FormValue) => FieldCode | undefined>>;
  /** Inputs whose value a refused form shows again; a password never comes back. */
  kept: readonly string[];
  /** The call's JSON body. */
  body: (value: FormValue) => PortalCallBody<N>;
}

const emailOnly = { [FIELD.email]: (value: FormValue) => fieldChecks.email(value(FIELD.email)) };
const newPasswordChecks = {
  [FIELD.newPassword]: (value: FormValue) => fieldChecks.newPassword(value(FIELD.newPassword)),
  [FIELD.confirmation]: (value: FormValue) =>
    fieldChecks.confirmation(value(FIELD.newPassword), value(FIELD.confirmation)),
};

/** spec §3 registration form; `clientid` and `invite_id` are the page's hidden inputs. */
export const registerForm: PortalForm<'register-user'> = {
  page: '/register',
  call: 'register-user',
  checks: {
    ...emailOnly,
    ...newPasswordChecks,
    [FIELD.registrationCode]: (value) => fieldChecks.registrationCode(value(FIELD.registrationCode)),
    [FIELD.terms]: (value) => fieldChecks.termsAccepted(value(FIELD.terms)),
  },
  kept: [FIELD.email, FIELD.registrationCode, FIELD.terms, 'clientid', 'invite_id'],
  body: (value) => ({
    // spec §5: registration lower-cases the e-mail.
    email: normaliseEmail(value(FIELD.email)),
    password: value(FIELD.newPassword),
    registrationcode:
      normaliseRegistrationCode(value(FIELD.registrationCode)) ?? value(FIELD.registrationCode).trim(),
    clientid: value('clientid'),
    invite_id: value('invite_id') || undefined,
  }),
};

/** spec §3 resend form: one answer for every address; `subdomain` is a hidden input. */
export const resendActivationForm: PortalForm<'resend-account-activation-email'> = {
  page: '/resend-account-activation-email',
  call: 'resend-account-activation-email',
  checks: emailOnly,
  kept: [FIELD.email, 'subdomain'],
  body: (value) => ({
    email: normaliseEmail(value(FIELD.email)),
    ...(value('subdomain') ? { subdomain: value('subdomain') } : {}),
  }),
};

/** spec §3 reset form; `requestId` and `subdomain` are hidden inputs. */
export const passwordResetInitForm: PortalForm<'password-reset-initiate'> = {
  page: '/password-reset-init',
  call: 'password-reset-initiate',
  checks: emailOnly,
  kept: [FIELD.email, 'requestId', 'subdomain'],
  body: (value) => ({
    requestId: value('requestId'),
    email: normaliseEmail(value(FIELD.email)),
    processingType: 'LINK' as const,
    resetMedium: 'email' as const,
    // An expired request id is renewed from this tenant's client.
    ...(value('subdomain') ? { subdomain: value('subdomain') } : {}),
  }),
};

/** spec §3 new-password form; the link's ids and the account's e-mail are hidden inputs. */
export const passwordSetForm: PortalForm<'password-reset-set-new'> = {
  page: '/password-set',
  call: 'password-reset-set-new',
  checks: newPasswordChecks,
  kept: ['requestId', 'rprq', 'exchangeId', 'username'],
  body: (value) => ({
    resetRequestId: value('rprq'),
    exchangeId: value('exchangeId'),
    password: value(FIELD.newPassword),
    confirmpassword: value(FIELD.confirmation),
    requestId: value('requestId'),
    email: value('username') || undefined,
  }),
};

/**
 * spec §3 activation: the link's page offers a button, which its script presses at once; a mail
 * scanner's bare GET of the link activates nothing.
 */
export const activationForm: PortalForm<'activate-user-account'> = {
  page: '/verification-complete',
  call: 'activate-user-account',
  checks: {},
  kept: ['email', 'verificationid'],
  body: (value) => ({ email: value('email'), verificationid: value('verificationid') }),
};

/**
 * The new-invitation form's hidden inputs: the link's parameters, under names of their own, since
 * the registration form beside it on the page carries the same values as `invite_id`, `email` and
 * `registrationcode`.
 */
export const INVITATION_LINK_FIELD = {
  inviteId: 'invitation_id',
  registrationCode: 'invitation_code',
  email: 'invitation_email',
} as const;

/**
 * issue 30: where the register page says an invitation was withdrawn or has expired, one button asks
 * the property manager for a new one. Nothing is typed: its inputs are the link's parameters, hidden,
 * and it shares its page with the registration form (FORM_NAME_FIELD tells the two apart).
 */
export const newInvitationRequestForm: PortalForm<'request-new-invitation'> = {
  page: '/register',
  call: 'request-new-invitation',
  checks: {},
  kept: [],
  body: (value) => ({
    invite_id: value(INVITATION_LINK_FIELD.inviteId),
    registrationcode: value(INVITATION_LINK_FIELD.registrationCode),
    email: value(INVITATION_LINK_FIELD.email),
  }),
};

/** Every form; a page's first one is what a post without FORM_NAME_FIELD is taken for. */
export const PORTAL_FORMS: readonly PortalForm[] = [
  registerForm,
  newInvitationRequestForm,
  resendActivationForm,
  passwordResetInitForm,
  passwordSetForm,
  activationForm,
];

/** Each checked input's code, in the form's order; empty when every input is right. */
export function checkForm(form: PortalForm, value: FormValue): [string, FieldCode][] {
  return Object.entries(form.checks).flatMap(([name, check]) => {
    const code = check(value);
    return code ? [[name, code] as [string, FieldCode]] : [];
  });
}

/**
 * What the server did with a form posted without JavaScript, rendered into the page (its state):
 * `sent` when the call went through, `refused` with the inputs' codes or
 * the call's error code. `values` are the kept inputs as sent.
 */
export type FormOutcome =
  | {
      page: string;
      /** Which of the page's forms it was (a page may have two: FORM_NAME_FIELD). */
      call: PortalCallName;
      status: 'sent';
      values: Record<string, string>;
      /** The activation's answer (spec §7): the account was activated before. */
      isAlreadyActivated?: boolean;
    }
  | {
      page: string;
      call: PortalCallName;
      status: 'refused';
      values: Record<string, string>;
      fieldErrors: [string, FieldCode][];
      /** The call's error code (spec §8), or `form_expired` when the form's token did not hold. */
      code?: string;
      retryAfterSeconds?: number;
    };

/** The form token's name in every form (the server checks it against its cookie). */
export const FORM_TOKEN_FIELD = '_csrf';

/**
 * Which form of its page a post without JavaScript is: the form's call. Needed only where a page
 * has more than one form (the register page's request for a new invitation); a post without it is
 * the page's first form.
 */
export const FORM_NAME_FIELD = '_form';
