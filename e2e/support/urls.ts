function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the browser tests through e2e/playwright.config.ts`);
  return value;
}

export const urls = {
  get portal() {
    return required('E2E_PORTAL_URL');
  },
  get provider() {
    return required('E2E_PROVIDER_URL');
  },
  get propertyPortal() {
    return required('E2E_PROPERTY_PORTAL_URL');
  },
  get mail() {
    return required('E2E_MAIL_URL');
  },
};
