import type { Page } from '@playwright/test';
import { createInvitation, revokeInvitation } from './support/admin';
import { expectSignedIn, submitLogin, waitForHydration } from './support/flows';
import { linkFromLatestMail } from './support/mail';
import { expect, test } from './support/test';
import { urls } from './support/urls';
import { createVerifiedUser, DEMO_USER, uniqueEmail } from './support/users';

// Issue 28: where tenants used to dead-end when life is less tidy — bookmarks, reloads, second tabs,
// withdrawn invitations — walked on a small, slow phone: 320 × 568, 300 ms latency and 200 KB/s.

test.use({ viewport: { width: 320, height: 568 }, hasTouch: true, isMobile: true, locale: 'de-CH' });

/** The phone's network, for this page's requests (Chrome DevTools Protocol). */
async function throttle(page: Page): Promise<Page> {
  const session = await page.context().newCDPSession(page);
  await session.send('Network.enable');
  await session.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 300,
    downloadThroughput: 200 * 1024,
    uploadThroughput: 200 * 1024,
  });
  return page;
}

const formRequestId = (page: Page) => page.locator('input[name="requestId"]').inputValue();

test('a bookmarked /login signs in when Enter is pressed before the page’s script has run', async ({
  page,
}) => {
  await throttle(page);
  await page.goto(`${urls.portal}/login?subdomain=demo`, { waitUntil: 'commit' });
  await page.locator('input[name="username"]').fill(DEMO_USER.email);
  await page.locator('input[name="password"]').fill(DEMO_USER.password);
  await page.locator('input[name="password"]').press('Enter');
  await expectSignedIn(page, DEMO_USER.email);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a bookmarked /login signs in', async ({ page }) => {
    await throttle(page);
    await page.goto(`${urls.portal}/login?subdomain=demo`);
    await submitLogin(page, DEMO_USER.email, DEMO_USER.password);
    // The provider takes the sign-in and sends the code on to the customer portal's callback.
    await page.waitForURL((url) => url.href.startsWith(`${urls.propertyPortal}/callback`));
  });
});

test('/login checks a field when it is left', async ({ page }) => {
  await throttle(page);
  await page.goto(`${urls.portal}/login?subdomain=demo`);
  await waitForHydration(page);
  await page.locator('input[name="username"]').focus();
  await page.keyboard.press('Tab');
  await expect(page.getByText('Bitte geben Sie Ihre E-Mail-Adresse ein.')).toBeVisible();
  await expect(page.locator('input[name="username"]')).toHaveAttribute('aria-invalid', 'true');
});

test('a reload of the reset link’s page keeps the form, and the new password is saved', async ({ page }) => {
  const user = await createVerifiedUser();
  await throttle(page);
  await page.goto(
    `${urls.portal}/password-reset-init?subdomain=demo&email=${encodeURIComponent(user.email)}`,
  );
  await page.getByRole('button', { name: 'Link senden' }).click();
  await expect(page.getByRole('status')).toContainText('Falls ein Konto mit dieser Adresse besteht');
  const { link } = await linkFromLatestMail(user.email, '/password-set');
  await page.goto(link.href);
  await waitForHydration(page);
  // The page takes the link's one-time ids out of the address; a reload must not lose the form.
  await page.reload();
  const passwords = page.locator('input[type="password"]');
  await expect(passwords).toHaveCount(2);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await passwords.nth(0).fill('Neues-Fenster4!');
  await passwords.nth(1).fill('Neues-Fenster4!');
  await page.getByRole('button', { name: 'Passwort speichern' }).click();
  await page.waitForURL((url) => url.pathname === '/password-set-success');
});

test('a second tab of the same address, a reopened address and the first tab come back all sign in', async ({
  context,
  page: first,
}) => {
  await throttle(first);
  await first.goto(`${urls.portal}/login?subdomain=demo`);
  await first.waitForURL((url) => url.searchParams.has('requestId'));
  const address = first.url();
  const shared = await formRequestId(first);

  // The same address in a second tab: the same request, which that tab uses to sign in.
  const second = await throttle(await context.newPage());
  await second.goto(address);
  expect(await formRequestId(second)).toBe(shared);
  await submitLogin(second, DEMO_USER.email, DEMO_USER.password);
  await expectSignedIn(second, DEMO_USER.email);

  // The address opened again (history, a bookmark): the used request is not shown again.
  const reopened = await throttle(await context.newPage());
  await reopened.goto(address);
  expect(await formRequestId(reopened)).not.toBe(shared);
  await submitLogin(reopened, DEMO_USER.email, DEMO_USER.password);
  await expectSignedIn(reopened, DEMO_USER.email);

  // Back in the first tab. Headless Chromium keeps every tab visible, so the test sends the event
  // a browser sends when a tab is shown again: the page asks for its request anew and signs in
  // with a fresh one.
  await first.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await expect.poll(() => formRequestId(first)).not.toBe(shared);
  await submitLogin(first, DEMO_USER.email, DEMO_USER.password);
  await expectSignedIn(first, DEMO_USER.email);
});

test('a withdrawn invitation says so on arrival, before the form is filled in', async ({ page }) => {
  const email = uniqueEmail('withdrawn');
  const invitation = await createInvitation(email);
  const { link } = await linkFromLatestMail(email, '/register');
  await revokeInvitation(invitation.id);
  await throttle(page);
  await page.goto(link.href);
  await expect(page.getByRole('alert')).toContainText(
    'Diese Einladung wurde von Ihrer Verwaltung zurückgezogen.',
  );
  // What the link brought stays in the form.
  await expect(page.locator('input[name="email"]')).toHaveValue(email);
});
