// The error codes the client acts on (docs/provider-protocol.md, "Codes"), as strings: cidaas sends
// integers, older services and the embedded provider's OIDC parts strings.

/** Invalid or expired request id: register's header, reset initiate. */
export const INVALID_REQUEST_ID = '10001';
/** Invalid resetRequestId or exchangeId: reset accept. */
export const INVALID_RESET_LINK = '10002';
/** Password and confirmation differ: reset accept. */
export const PASSWORD_MISMATCH = '10009';
/** The password does not meet the provider's rules (embedded provider; cidaas: unknown). */
export const PASSWORD_POLICY = '10012';
/** User not found: existence, user by sub, status. */
export const USER_NOT_FOUND = '10301';
/** A registration field the tenant requires is missing. */
export const REQUIRED_FIELD_MISSING = '507';
