import { authorizationUrl, expectSignedIn, startSignIn, submitLogin } from './support/flows';
import { expect, test } from './support/test';
import { urls } from './support/urls';
import { createUser, createVerifiedUser, DEMO_USER, ROLES_CLIENT_ID } from './support/users';

const counterMessages = {
  'de-CH': [
    'Sie haben noch zwei Versuche, bevor Ihr Konto gesperrt wird.',
    'Sie haben noch einen Versuch, bevor Ihr Konto gesperrt wird.',
    'Ihr Konto ist gesperrt.',
  ],
  'fr-CH': [
    'Il vous reste deux essais avant le blocage de votre compte.',
    'Il vous reste un essai avant le blocage de votre compte.',
    'Votre compte est bloqué.',
  ],
};

for (const [locale, messages] of Object.entries(counterMessages)) {
  test.describe(`lockout in ${locale}`, () => {
    test.use({ locale });

    test('says how many attempts remain, locks at the third, and the right password no longer signs in', async ({
      page,
    }) => {
      const user = await createVerifiedUser();
      await startSignIn(page);
      for (const message of messages) {
        await submitLogin(page, user.email, 'Wrong-Passw0rd!');
        await page.waitForURL((url) => url.searchParams.get('error') === 'invalid_username_password');
        await expect(page.getByRole('alert')).toContainText(message);
      }
      await submitLogin(page, user.email, user.password);
      await page.waitForURL((url) => url.searchParams.get('error') === 'invalid_username_password');
      await expect(page.getByRole('alert')).toContainText(messages[2]!);
      expect(page.url().startsWith(urls.portal)).toBe(true);
    });
  });
}

test('an account that is not activated yet is sent to the resend-activation page with its e-mail', async ({
  page,
}) => {
  const user = await createUser({ activated: false });
  await startSignIn(page);
  await submitLogin(page, user.email, user.password);
  await page.waitForURL((url) => url.pathname === '/resend-account-activation-email');
  const url = new URL(page.url());
  expect(url.searchParams.get('email')).toBe(user.email);
  await expect(page.locator('input[type="email"]')).toHaveValue(user.email);
});

test('a user without the roles a client requires is told so', async ({ page }) => {
  const user = await createVerifiedUser();
  await page.goto(authorizationUrl(ROLES_CLIENT_ID));
  await page.waitForURL((url) => url.href.startsWith(`${urls.portal}/login?`));
  await submitLogin(page, user.email, user.password);
  await page.waitForURL((url) => url.searchParams.get('error') === 'access_denied');
  await expect(page.getByRole('alert')).toHaveText(
    'No access to this portal has been set up for you yet. Please contact your property manager.',
  );
});

test('a user with the role is let in by the same client', async ({ page }) => {
  const user = await createUser({ roles: ['owner'] });
  await page.goto(authorizationUrl(ROLES_CLIENT_ID));
  await page.waitForURL((url) => url.href.startsWith(`${urls.portal}/login?`));
  await submitLogin(page, user.email, user.password);
  await page.waitForURL((url) => url.href.startsWith(`${urls.propertyPortal}/callback`));
});

test('/login opened without a request id gets a fresh one and signs the tenant in to the customer portal', async ({
  page,
}) => {
  await page.goto(`${urls.portal}/login?subdomain=demo`);
  await page.waitForURL((url) => Boolean(url.searchParams.get('requestId')));
  await submitLogin(page, DEMO_USER.email, DEMO_USER.password);
  await expectSignedIn(page, DEMO_USER.email);
});

test('silent renew gives the relying party a new access token', async ({ page }) => {
  await startSignIn(page);
  await submitLogin(page, DEMO_USER.email, DEMO_USER.password);
  await expectSignedIn(page, DEMO_USER.email);
  const before = Number(await page.getByTestId('token-expires').getAttribute('data-expires-at'));
  await page.waitForTimeout(1100);
  await page.getByTestId('renew').click();
  await expect
    .poll(async () => Number(await page.getByTestId('token-expires').getAttribute('data-expires-at')))
    .toBeGreaterThan(before);
});

test('signing out in one tab is noticed in another', async ({ context }) => {
  const first = await context.newPage();
  await startSignIn(first);
  await submitLogin(first, DEMO_USER.email, DEMO_USER.password);
  await expectSignedIn(first, DEMO_USER.email);
  // The relying party keeps its tokens per tab; the provider session signs the second tab in at once.
  const second = await context.newPage();
  await second.goto(urls.propertyPortal);
  await second.getByTestId('sign-in').click();
  await expectSignedIn(second, DEMO_USER.email);

  await first.getByTestId('sign-out').click();
  await first.waitForURL((url) => url.href.startsWith(urls.propertyPortal));
  await expect(first.getByTestId('sign-in')).toBeVisible();
  // session monitoring checks every 2 s
  await expect(second.getByTestId('sign-in')).toBeVisible({ timeout: 15_000 });
});

test('signs in through a pop-up window and back in the opening page', async ({ page }) => {
  await page.goto(urls.propertyPortal);
  const popupOpened = page.waitForEvent('popup');
  await page.getByTestId('sign-in-popup').click();
  const popup = await popupOpened;
  await popup.waitForURL((url) => url.href.startsWith(`${urls.portal}/login?`));
  // Waited for from before the submit: the pop-up may close while submitLogin still waits, and a
  // 'close' listened for after it had fired was never heard (the test's one-minute flake).
  const popupClosed = popup.waitForEvent('close');
  await submitLogin(popup, DEMO_USER.email, DEMO_USER.password);
  await popupClosed;
  await expect(page.getByTestId('user-email')).toHaveText(DEMO_USER.email);
});
