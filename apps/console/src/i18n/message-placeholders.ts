// The placeholders each text needs from its caller, read from the German texts (locales.test.ts
// keeps the other languages to the same ones). Written by locales.test.ts:
// `npx vitest run apps/console/src/i18n/locales.test.ts --update`.
export interface MessagePlaceholders {
  'common.documentTitle': 'title';
  'common.errorTitle': 'title';
  'common.signedInAs': 'email' | 'role';
  'common.fieldProblem': 'label' | 'message';
  'common.backToTenant': 'name';
  'common.sessionEnding': 'time';
  'doneCount.batch_created': 'count';
  'doneCount.batch_revoked': 'count';
  'doneCount.codes_revoked': 'count';
  'field.onLine': 'line' | 'message';
  'tenant.requestsOpen': 'count';
  'batch.selectCode': 'unit';
  'batch.registeredWith': 'email';
  'invitations.to': 'email';
  'invitations.revokeConfirm': 'email';
  'brand.officeHours': 'language';
  'brand.previewFrame': 'page';
  'audit.titleOf': 'name';
  'audit.token': 'token';
}
