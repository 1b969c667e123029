/**
 * cidaas's integer error codes (provider-protocol.md, "Codes"); the table there says which are
 * recorded and which are the embedded provider's choice.
 */
export const CIDAAS_CODES = {
  /** Ours: a request that does not parse or validate. */
  MALFORMED_REQUEST: 10000,
  INVALID_REQUEST_ID: 10001,
  INVALID_RESET_IDS: 10002,
  PASSWORD_MISMATCH: 10009,
  /** Embedded's choice: what cidaas answers for a taken e-mail is unknown. */
  EMAIL_TAKEN: 10011,
  /** Embedded's choice, like 10011. */
  PASSWORD_RULES: 10012,
  /** The 400 is recorded, the code is ours. */
  STATUS_CHANGE_NOT_ALLOWED: 10013,
  USER_NOT_FOUND: 10301,
  REQUIRED_FIELD_MISSING: 507,
} as const;
export type CidaasCode = (typeof CIDAAS_CODES)[keyof typeof CIDAAS_CODES];

/**
 * Answers without a cidaas code on record (a refused token, a foreign origin, an internal error)
 * carry their HTTP status as the code: still an integer, and never one of cidaas's meanings.
 */
export type StatusAsCode = 401 | 403 | 429 | 500;
