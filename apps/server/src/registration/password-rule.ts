import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@concierge/contracts';

// The portal's English register.error.newPasswordInvalid (spec §5, with the maximum the spec's
// wording left out: issue 25), its limits from the rule itself. The portal checks the same rule
// (isStrongPassword) before it sends, so only a caller that skipped the portal reads this.
export const PASSWORD_RULE_MESSAGE = `The password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters long and include a special character, a number, an uppercase and a lowercase letter.`;
