import { axeViolations } from './support/accessibility';
import { authorizationUrl, startSignIn } from './support/flows';
import { expect, test } from './support/test';
import { urls } from './support/urls';
import { createVerifiedUser, DEMO_USER } from './support/users';

test('signs in from the demo relying party through /login, lands back signed in, then signs out', async ({
  page,
}) => {
  await startSignIn(page);
  expect(new URL(page.url()).searchParams.get('requestId')).toBeTruthy();
  await page.getByLabel('Email address').fill(DEMO_USER.email);
  await page.getByLabel(/^Password/).fill(DEMO_USER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();

  await page.waitForURL(
    (url) => url.href.startsWith(urls.propertyPortal) && !url.pathname.startsWith('/callback'),
  );
  await expect(page.getByTestId('user-email')).toHaveText(DEMO_USER.email);
  await expect(page.getByTestId('user-sub')).not.toBeEmpty();

  await page.getByTestId('sign-out').click();
  await page.waitForURL((url) => url.href.startsWith(urls.propertyPortal));
  await expect(page.getByTestId('sign-in')).toBeVisible();
  await expect(page.getByTestId('user-email')).toHaveCount(0);
});

for (const { locale, message } of [
  { locale: 'de-CH', message: 'E-Mail-Adresse oder Passwort ist falsch.' },
  { locale: 'fr-CH', message: 'Adresse e-mail ou mot de passe incorrect.' },
]) {
  test.describe(`in ${locale}`, () => {
    test.use({ locale });

    test('a wrong password comes back to /login with the translated message', async ({ page }) => {
      const user = await createVerifiedUser();
      await startSignIn(page);
      await page.locator('input[name="username"]').fill(user.email);
      await page.locator('input[name="password"]').fill('Wrong-Passw0rd!');
      await page.locator('button[type="submit"]').click();

      await page.waitForURL((url) => url.searchParams.get('error') === 'invalid_username_password');
      // the failed-login counter then refines it ("two attempts left"), so the start is what counts
      await expect(page.getByRole('alert')).toContainText(message);
      // the e-mail comes back prefilled; the password never travels in the URL
      await expect(page.locator('input[name="username"]')).toHaveValue(user.email);
      expect(page.url()).not.toContain('Wrong-Passw0rd');
    });
  });
}

test('the login form is in the first frame, before any JavaScript runs', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, locale: 'it-CH' });
  const page = await context.newPage();
  // From the customer portal: the page comes with the request checked, the form posts to the provider.
  await page.goto(authorizationUrl('property-portal-demo'));
  await page.waitForURL((url) => url.href.startsWith(`${urls.portal}/login?`));
  await expect(page.getByRole('heading', { name: 'Accesso' })).toBeVisible();
  await expect(page.locator('input[name="username"]')).toBeVisible();
  await expect(page.locator('form')).toHaveAttribute('action', `${urls.provider}/login-srv/login`);
  await context.close();
});

test('/login has no accessibility violations', async ({ page }) => {
  await page.goto(`${urls.portal}/login?requestId=a11y&error=invalid_username_password`);
  await expect(page.getByRole('alert')).toBeVisible();
  expect(await axeViolations(page, 'all rules')).toEqual([]);
});

test('/ redirects to /login with the query string', async ({ page, request }) => {
  const redirect = await request.get(`${urls.portal}/?requestId=r-1&subdomain=demo`, { maxRedirects: 0 });
  expect(redirect.status()).toBe(302);
  expect(redirect.headers().location).toBe('/login?requestId=r-1&subdomain=demo');
  // in the browser the made-up request id is then swapped for a fresh one from the provider
  await page.goto(`${urls.portal}/?requestId=r-1&subdomain=demo`);
  await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('subdomain') === 'demo');
});
