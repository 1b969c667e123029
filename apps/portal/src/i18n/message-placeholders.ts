// The placeholders each text needs from its caller, read from the German texts (locales.test.ts
// keeps the other languages to the same ones; the rules’ limits the translator fills in itself).
// Written by message-placeholders.test.ts: `npx vitest run -u src/i18n/message-placeholders.test.ts`.
export interface MessagePlaceholders {
  'common.logoAlt': 'name';
  'common.errorTitle': 'title';
  'login.locked.happened': 'count';
  'register.passwordRules': 'specials';
  'register.success.text': 'email' | 'activationLinkLifetime';
  'register.error.too_many_requests': 'wait';
  'register.newInvitation.error.too_many_requests': 'wait';
  'verification.error.too_many_requests': 'wait';
  'password_reset.init.success': 'resetLinkLifetime';
  'password_reset.init.error.too_many_requests': 'wait';
  'password_reset.reset.passwordRules': 'specials';
  'password_reset.reset.error.missing_url_query_param': 'parameter';
  'password_reset.reset.error.too_many_requests': 'wait';
}
