import { demoTenants } from './support/tenants';
import { expect, test } from './support/test';

// Issue 28: while the identity provider cannot be reached, every page says so in the tenant's
// language, and what the tenant brought — the letter's code, the typed e-mail — stays for when it is
// back. A server of the run that reaches no provider (e2e/global-setup.ts) stands for the outage.

test.use({ locale: 'de-CH' });

const OUTAGE = 'Der Anmeldedienst ist im Moment nicht erreichbar.';
const CODE = '5b1c7e2a-9d4f-4c3b-8a6e-1f2d3c4b5a69';
const EMAIL = 'anna@example.ch';

/**
 * Every page of spec §2 with what its link brings, the pages that need a sign-in request first. The
 * letter's code only on the letter's link: on any other page it leads to /register (spec §2).
 */
const PAGES = [
  `/register?registrationcode=${CODE}&email=${EMAIL}`,
  `/login?username=${EMAIL}`,
  `/password-reset-init?email=${EMAIL}`,
  `/resend-account-activation-email?email=${EMAIL}`,
  `/verification-complete?email=${EMAIL}&verificationid=v-1`,
  `/password-set?rprq=r-1&exchangeid=e-1&requestId=q-1&email=${EMAIL}`,
  '/password-set-success?',
];

test('every page of every demo tenant says the provider is away and keeps what the tenant brought', async ({
  page,
}) => {
  test.skip(process.env.E2E_CLUSTER === '1', 'the cluster run has no server without a provider');
  const away = process.env.E2E_PROVIDER_AWAY_URL;
  if (!away) throw new Error('E2E_PROVIDER_AWAY_URL is not set: e2e/global-setup.ts starts that server');
  for (const { subdomain } of demoTenants) {
    for (const path of PAGES) {
      const address = `${away}${path}&subdomain=${subdomain}`;
      await page.goto(address);
      await expect(page.getByRole('alert').filter({ hasText: OUTAGE }), address).toBeVisible();
      expect(new URL(page.url()).pathname, address).toBe(path.split('?')[0]);
      // The letter's code and the e-mail stay, in the address and in the form, for when it is back.
      if (path.startsWith('/register')) {
        expect(new URL(page.url()).searchParams.get('registrationcode'), address).toBe(CODE);
        await expect(page.locator('input[name="registrationcode"]'), address).toHaveValue(CODE);
      }
      for (const field of await page.locator('input[type="email"]').all()) {
        await expect(field, address).toHaveValue(EMAIL);
      }
    }
  }
});
