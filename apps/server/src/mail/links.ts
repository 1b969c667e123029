// The links e-mails and letters carry. Built from configuration and stored values only, never from
// request input; the portal pages named here read exactly these parameters (spec §2).

/** spec §2 /verification-complete: email, verificationid, subdomain. */
export function activationLink(
  portalUrl: string,
  input: { email: string; verificationId: string; subdomain: string },
): string {
  const url = new URL('/verification-complete', portalUrl);
  url.searchParams.set('email', input.email);
  url.searchParams.set('verificationid', input.verificationId);
  url.searchParams.set('subdomain', input.subdomain);
  return url.href;
}

/** spec §2 /register with an invitation: e-mail and code fields are then read-only. */
export function invitationLink(
  portalUrl: string,
  input: { code: string; email: string; inviteId: string; subdomain: string },
): string {
  const url = new URL('/register', portalUrl);
  url.searchParams.set('registrationcode', input.code);
  url.searchParams.set('email', input.email);
  url.searchParams.set('invite_id', input.inviteId);
  url.searchParams.set('subdomain', input.subdomain);
  return url.href;
}

/** The link a printed letter carries with a registration code. */
export function registerLink(portalUrl: string, input: { code: string; subdomain: string }): string {
  const url = new URL('/register', portalUrl);
  url.searchParams.set('registrationcode', input.code);
  url.searchParams.set('subdomain', input.subdomain);
  return url.href;
}

/** Where a tenant signs in: the customer's portal, which starts the sign-in (as the portal's "to login"). */
export function customerLoginLink(customerPortalUrl: string): string {
  return `${customerPortalUrl.replace(/\/+$/, '')}/login`;
}

/** spec §2 /password-reset-init: the e-mail filled in; the page gets its sign-in request itself. */
export function passwordResetLink(portalUrl: string, input: { email: string; subdomain: string }): string {
  const url = new URL('/password-reset-init', portalUrl);
  url.searchParams.set('email', input.email);
  url.searchParams.set('subdomain', input.subdomain);
  return url.href;
}
