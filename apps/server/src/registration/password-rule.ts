// spec §5 register.error.newPasswordInvalid, word for word: the portal checks the same rule
// (isStrongPassword) before it sends, so only a caller that skipped the portal reads this.
export const PASSWORD_RULE_MESSAGE =
  'The password must be at least 6 characters long and include a special character, a number, an uppercase and a lowercase letter.';
