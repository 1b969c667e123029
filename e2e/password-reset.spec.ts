import { expectSignedIn, startSignIn, submitLogin } from './support/flows';
import { linkFromLatestMail } from './support/mail';
import { expect, test } from './support/test';
import { urls } from './support/urls';
import { createUser, createVerifiedUser } from './support/users';

const NEW_PASSWORD = 'Neues-Fenster4!';

test.use({ locale: 'de-CH' });

test('a locked account is unlocked by a new password set through the e-mailed link', async ({ page }) => {
  const user = await createVerifiedUser();
  await startSignIn(page);
  // Each failure's own message before the next try: after the first, the address already carries
  // the error, so only the message tells that the page of this try has come.
  for (const message of ['noch zwei Versuche', 'noch einen Versuch', 'Ihr Konto ist gesperrt']) {
    await submitLogin(page, user.email, 'Wrong-Passw0rd!');
    await page.waitForURL((url) => url.searchParams.get('error') === 'invalid_username_password');
    await expect(page.getByRole('alert')).toContainText(message);
  }

  await page.getByRole('link', { name: 'Passwort vergessen oder Konto gesperrt?' }).click();
  await page.waitForURL((url) => url.pathname === '/password-reset-init');
  await expect(page.getByText('entsperrt auch Ihr Konto')).toBeVisible();
  await expect(page.locator('input[type="email"]')).toHaveValue(user.email);
  await page.getByRole('button', { name: 'Link senden' }).click();
  await expect(page.getByRole('status')).toContainText('Falls ein Konto mit dieser Adresse besteht');

  const { link } = await linkFromLatestMail(user.email, '/password-set');
  await page.goto(link.href);
  await page.locator('input[type="password"]').nth(0).fill(NEW_PASSWORD);
  await page.locator('input[type="password"]').nth(1).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Passwort speichern' }).click();
  await page.waitForURL((url) => url.pathname === '/password-set-success');
  await expect(page.getByText('Ihr Konto ist entsperrt')).toBeVisible();

  // the link works once only
  await page.goto(link.href);
  await page.locator('input[type="password"]').nth(0).fill(NEW_PASSWORD);
  await page.locator('input[type="password"]').nth(1).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Passwort speichern' }).click();
  await expect(page.getByRole('alert')).toContainText('bereits verwendet oder ist abgelaufen');

  await startSignIn(page);
  await submitLogin(page, user.email, NEW_PASSWORD);
  await expectSignedIn(page, user.email);
});

test('a registered but never activated account is activated by a reset', async ({ page }) => {
  const user = await createUser({ activated: false });
  await startSignIn(page);
  const requestId = new URL(page.url()).searchParams.get('requestId')!;
  await page.goto(`${urls.portal}/password-reset-init?subdomain=demo&requestId=${requestId}`);
  await page.locator('input[type="email"]').fill(user.email);
  await page.getByRole('button', { name: 'Link senden' }).click();
  const { link } = await linkFromLatestMail(user.email, '/password-set');
  await page.goto(link.href);
  await page.locator('input[type="password"]').nth(0).fill(NEW_PASSWORD);
  await page.locator('input[type="password"]').nth(1).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Passwort speichern' }).click();
  await page.waitForURL((url) => url.pathname === '/password-set-success');

  await startSignIn(page);
  await submitLogin(page, user.email, NEW_PASSWORD);
  await expectSignedIn(page, user.email);
});

test('a reload of the set-password page keeps the form; the one-time ids stay out of the address (issue 28)', async ({
  page,
}) => {
  const user = await createVerifiedUser();
  await startSignIn(page);
  const requestId = new URL(page.url()).searchParams.get('requestId')!;
  await page.goto(`${urls.portal}/password-reset-init?subdomain=demo&requestId=${requestId}`);
  await page.locator('input[type="email"]').fill(user.email);
  await page.getByRole('button', { name: 'Link senden' }).click();
  const { link } = await linkFromLatestMail(user.email, '/password-set');

  // A phone on a slow network (issue 28: 320 × 568, 300 ms and 200 KB/s).
  await page.setViewportSize({ width: 320, height: 568 });
  await page.goto(link.href);
  await expect(page.locator('input[type="password"]').first()).toBeVisible();
  const withoutIds = (url: URL) =>
    !['rprq', 'exchangeId', 'exchangeid'].some((name) => url.searchParams.has(name));
  await page.waitForURL(withoutIds);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 300,
    downloadThroughput: 200 * 1024,
    uploadThroughput: 200 * 1024,
  });
  // React reports a page it could not hydrate (and rendered anew) as an uncaught error.
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  await page.reload();
  await expect(page.locator('input[type="password"]').first()).toBeVisible();
  expect(pageErrors).toEqual([]);
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(withoutIds(new URL(page.url()))).toBe(true);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await cdp.detach();

  await page.locator('input[type="password"]').nth(0).fill(NEW_PASSWORD);
  await page.locator('input[type="password"]').nth(1).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Passwort speichern' }).click();
  await page.waitForURL((url) => url.pathname === '/password-set-success');

  await startSignIn(page);
  await submitLogin(page, user.email, NEW_PASSWORD);
  await expectSignedIn(page, user.email);
});

test('a reset link with a missing parameter names it', async ({ page }) => {
  await page.goto(`${urls.portal}/password-set?subdomain=demo&requestId=r&rprq=x`);
  await expect(page.getByRole('alert')).toContainText('exchangeId');
  await page.goto(`${urls.portal}/password-set?subdomain=demo&requestId=r&exchangeid=x`);
  await expect(page.getByRole('alert')).toContainText('resetRequestId');
});

test('the reset page tells every e-mail the same', async ({ page }) => {
  await startSignIn(page);
  const requestId = new URL(page.url()).searchParams.get('requestId')!;
  const answers: string[] = [];
  for (const email of ['demo@concierge.test', 'niemand-hier@example.ch']) {
    await page.goto(`${urls.portal}/password-reset-init?subdomain=demo&requestId=${requestId}`);
    await page.locator('input[type="email"]').fill(email);
    await page.getByRole('button', { name: 'Link senden' }).click();
    answers.push(await page.getByRole('status').innerText());
  }
  expect(answers[0]).toBe(answers[1]);
});
