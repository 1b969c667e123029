import { readFileSync } from 'node:fs';
import { expectNoAxeViolationsWithoutScript } from './support/accessibility';
import { createRegistrationCode } from './support/admin';
import { authorizationUrl } from './support/flows';
import { linkFromLatestMail } from './support/mail';
import { expect, type Page, test } from './support/test';
import { urls } from './support/urls';
import { createVerifiedUser, uniqueEmail } from './support/users';

// Issue 25: every journey with the browser's JavaScript off — each form posts to the server, which
// answers with the page — in German, French and Italian.

test.describe.configure({ mode: 'parallel' });
test.use({ javaScriptEnabled: false });

const PASSWORD = 'Balkon-Blume9!';
const LANGUAGES = [
  ['de-CH', 'de'],
  ['fr-CH', 'fr'],
  ['it-CH', 'it'],
] as const;

const errorSummaryTitle = (language: string) =>
  (
    JSON.parse(
      readFileSync(new URL(`../apps/portal/src/i18n/locales/${language}.json`, import.meta.url), 'utf8'),
    ) as { common: { errorSummary: string } }
  ).common.errorSummary;

/** The page the server answered a form with shows the error summary, focused, with a link to `field`. */
async function expectErrorSummary(page: Page, language: string, field: string) {
  const summary = page.locator('.error-summary');
  await expect(summary).toBeFocused();
  await expect(summary.getByRole('heading')).toHaveText(errorSummaryTitle(language));
  await expect(summary.locator(`a[href="#field-${field}"]`)).toBeVisible();
  await expect(page.locator(`#field-${field}`)).toHaveAttribute('aria-invalid', 'true');
}

const submit = (page: Page) => page.locator('form button[type="submit"]').click();

/** A sign-in from the relying party's authorization request to its callback with a code. */
async function signIn(page: Page, email: string, password: string) {
  await page.goto(authorizationUrl('property-portal-demo'));
  await page.waitForURL((url) => url.href.startsWith(`${urls.portal}/login?`));
  await page.locator('input[name="username"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await submit(page);
  await page.waitForURL(
    (url) => url.href.startsWith(`${urls.propertyPortal}/callback`) && url.searchParams.has('code'),
  );
}

for (const [locale, language] of LANGUAGES) {
  test.describe(`without JavaScript (${language})`, () => {
    test.use({ locale });

    test('register with a letter code, ask for the e-mail again, activate by its link, sign in', async ({
      page,
    }) => {
      const code = await createRegistrationCode();
      const email = uniqueEmail(`nojs-${language}`);
      await page.goto(`${urls.portal}/register?subdomain=demo&registrationcode=${code}`);
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await expectNoAxeViolationsWithoutScript(page, `/register (${language}, no JavaScript)`);
      await page.locator('input[name="email"]').fill(email);
      await page.locator('input[name="new-password"]').fill(PASSWORD);
      await page.locator('input[name="new-password-confirmation"]').fill('Balkon-Blume8!');
      // The terms open in the page itself.
      await page.locator('details.terms-inline summary').click();
      await expect(page.locator('details.terms-inline section').first()).toBeVisible();
      await page.locator('input[name="terms"]').check();
      await submit(page);
      // Refused: the summary, what was typed (never a password), and the form to send again.
      await expectErrorSummary(page, language, 'new-password-confirmation');
      await expect(page.locator('input[name="email"]')).toHaveValue(email);
      await expect(page.locator('input[name="registrationcode"]')).toHaveValue(code);
      await expect(page.locator('input[name="new-password"]')).toHaveValue('');
      await expectNoAxeViolationsWithoutScript(page, `/register refused (${language}, no JavaScript)`);
      await page.locator('input[name="new-password"]').fill(PASSWORD);
      await page.locator('input[name="new-password-confirmation"]').fill(PASSWORD);
      await submit(page);
      await expect(page.getByRole('status')).toContainText(email);
      await expectNoAxeViolationsWithoutScript(page, `/register sent (${language}, no JavaScript)`);
      const first = await linkFromLatestMail(email, '/verification-complete');

      // The success page's link to ask for the e-mail again, with the address filled in.
      await page.locator('a[href^="/resend-account-activation-email"]').click();
      await expect(page.locator('input[name="email"]')).toHaveValue(email);
      await page.locator('input[name="email"]').fill('');
      await submit(page);
      await expectErrorSummary(page, language, 'email');
      await expectNoAxeViolationsWithoutScript(
        page,
        `/resend-account-activation-email refused (${language}, no JavaScript)`,
      );
      await page.locator('input[name="email"]').fill(email);
      await submit(page);
      await expect(page.getByRole('status')).toBeFocused();
      let link = first.link;
      await expect
        .poll(async () => {
          link = (await linkFromLatestMail(email, '/verification-complete')).link;
          return link.href;
        })
        .not.toBe(first.link.href);

      await page.goto(link.href);
      // Opening the link activates nothing; its button does.
      await expect(page.getByRole('status')).toHaveCount(0);
      await expectNoAxeViolationsWithoutScript(page, `/verification-complete (${language}, no JavaScript)`);
      await submit(page);
      await expect(page.getByRole('status')).toBeFocused();
      await expectNoAxeViolationsWithoutScript(
        page,
        `/verification-complete activated (${language}, no JavaScript)`,
      );

      await signIn(page, email, PASSWORD);
    });

    test('three wrong passwords lock the account; a reset unlocks it; sign in', async ({ page }) => {
      const user = await createVerifiedUser();
      await page.goto(authorizationUrl('property-portal-demo'));
      await page.waitForURL((url) => url.href.startsWith(`${urls.portal}/login?`));
      for (let attempt = 0; attempt < 3; attempt++) {
        await page.locator('input[name="username"]').fill(user.email);
        await page.locator('input[name="password"]').fill('Wrong-Passw0rd!');
        await submit(page);
        await page.waitForURL((url) => url.searchParams.get('error') === 'invalid_username_password');
        await expect(page.getByRole('alert')).toBeVisible();
      }
      await expectNoAxeViolationsWithoutScript(
        page,
        `/login after a wrong password (${language}, no JavaScript)`,
      );
      await page.locator('a[href^="/password-reset-init"]').click();
      await page.waitForURL((url) => url.pathname === '/password-reset-init');
      await page.locator('input[name="email"]').fill('not an address');
      await submit(page);
      await expectErrorSummary(page, language, 'email');
      await expectNoAxeViolationsWithoutScript(
        page,
        `/password-reset-init refused (${language}, no JavaScript)`,
      );
      await page.locator('input[name="email"]').fill(user.email);
      await submit(page);
      await expect(page.getByRole('status')).toBeVisible();
      await expectNoAxeViolationsWithoutScript(
        page,
        `/password-reset-init sent (${language}, no JavaScript)`,
      );

      const { link } = await linkFromLatestMail(user.email, '/password-set');
      await page.goto(link.href);
      await submit(page);
      await expectErrorSummary(page, language, 'new-password');
      await expectNoAxeViolationsWithoutScript(page, `/password-set refused (${language}, no JavaScript)`);
      await page.locator('input[name="new-password"]').fill(PASSWORD);
      await page.locator('input[name="new-password-confirmation"]').fill(PASSWORD);
      await submit(page);
      await page.waitForURL((url) => url.pathname === '/password-set-success');
      await expectNoAxeViolationsWithoutScript(page, `/password-set-success (${language}, no JavaScript)`);

      await signIn(page, user.email, PASSWORD);
    });
  });
}

test('the pages no journey above passes through have no axe violations either', async ({ page }) => {
  for (const path of [
    '/login?subdomain=demo',
    '/login?subdomain=demo&error=invalid_username_password',
    '/register?subdomain=lacleman&lang=fr',
    '/password-set?subdomain=demo&requestId=r',
    '/verification-complete?subdomain=demo&email=anna%40example.ch',
    '/no-such-page?subdomain=it2',
  ]) {
    await page.goto(`${urls.portal}${path}`);
    await expectNoAxeViolationsWithoutScript(page, `${path} (no JavaScript)`);
  }
});

test('another site’s form post changes nothing and is refused', async ({ page }) => {
  const code = await createRegistrationCode();
  // A page of another origin (the provider's) that posts a registration to the portal.
  await page.goto(`${urls.provider}/.well-known/openid-configuration`);
  await page.setContent(`
    <form method="post" action="${urls.portal}/register?subdomain=demo">
      <input name="email" value="${uniqueEmail('csrf')}">
      <input name="new-password" value="${PASSWORD}">
      <input name="new-password-confirmation" value="${PASSWORD}">
      <input name="registrationcode" value="${code}">
      <input name="terms" value="on">
      <input name="clientid" value="property-portal-demo">
      <button>send</button>
    </form>`);
  const answer = page.waitForResponse((response) => response.url().startsWith(`${urls.portal}/register`));
  await page.locator('button').click();
  expect((await answer).status()).toBe(403);
  // The code is still unused: a registration with it goes through.
  await page.goto(`${urls.portal}/register?subdomain=demo&registrationcode=${code}`);
  const email = uniqueEmail('after-csrf');
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="new-password"]').fill(PASSWORD);
  await page.locator('input[name="new-password-confirmation"]').fill(PASSWORD);
  await page.locator('input[name="terms"]').check();
  await submit(page);
  await expect(page.getByRole('status')).toContainText(email);
});
